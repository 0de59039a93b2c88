# Each unit test: add its name to UNIT_TESTS and list the daemon sources it links
# as test_NAME_OBJS (sources, e.g. daemon/rate.c; they are built under build/).
