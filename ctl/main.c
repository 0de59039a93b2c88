// SPDX-License-Identifier: GPL-2.0-only
/* placeholder until the CLI lands in the next commits */
int main(void)
{
	return 1;
}
