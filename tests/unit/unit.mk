# Each unit test: add its name to UNIT_TESTS and list the daemon sources it links
# as test_NAME_OBJS (sources, e.g. daemon/rate.c; they are built under build/).
UNIT_TESTS += rate
test_rate_OBJS := daemon/rate.c
# pace: the tick interval stretched while quiet (main.c's timer follows it)
UNIT_TESTS += pace
test_pace_OBJS := daemon/pace.c
UNIT_TESTS += nl_netdev nl_ethtool ethstats
test_nl_netdev_OBJS := daemon/nl_netdev.c daemon/genl.c
test_nl_ethtool_OBJS := daemon/nl_ethtool.c daemon/genl.c
test_ethstats_OBJS := daemon/ethstats.c

# api: HTTP layer driven by libcurl against tests/unit/fake_view.c (owner: api)
UNIT_TESTS += api prom reqval
test_api_OBJS := daemon/api.c daemon/api_route.c daemon/api_auth.c daemon/api_conn.c daemon/api_args.c daemon/api_reply.c daemon/api_sock.c \
		 daemon/http_parse.c daemon/apierr.c daemon/util.c daemon/log.c daemon/reqval.c \
		 daemon/token.c tests/unit/fake_view.c
test_prom_OBJS := daemon/prom.c daemon/util.c
test_reqval_OBJS := daemon/reqval.c daemon/apierr.c daemon/util.c
# api_sock: the listeners' backlog under a burst of connects
UNIT_TESTS += api_sock
test_api_sock_OBJS := daemon/api_sock.c
# view_act: the write routes' replies, their neighbours stood in for inside the test
UNIT_TESTS += view_act
test_view_act_OBJS := daemon/view_act.c daemon/reqval.c daemon/apierr.c daemon/util.c
test_api_PKGS := libcurl
# api_hdr: header fields libcurl cannot be made to send (raw bytes on the unix socket)
UNIT_TESTS += api_hdr
test_api_hdr_OBJS := $(test_api_OBJS)
# token: the token file rule of vqtuned --token-file and vqtunectl -T
UNIT_TESTS += token
test_token_OBJS := daemon/token.c daemon/util.c
UNIT_TESTS += http_parse sysfs
test_sysfs_OBJS := daemon/sysfs.c
test_http_parse_OBJS := daemon/http_parse.c

# vqtunectl pure helpers (owner: ctl); built from ctl/ with the ctl flags, need only jansson
UNIT_TESTS += ctl_fmt ctl_table
test_ctl_fmt_OBJS := ctl/fmt.c ctl/jpath.c
test_ctl_table_OBJS := ctl/table.c
# policy set: objects set member by member, "unchanged" judged on values
UNIT_TESTS += ctl_jpath
test_ctl_jpath_OBJS := ctl/jpath.c ctl/fmt.c
# knobs text: a driver's rule under the table
UNIT_TESTS += ctl_output
test_ctl_output_OBJS := ctl/output.c ctl/table.c ctl/fmt.c ctl/jpath.c

# knob table: ranges and instances on a hand-built device
UNIT_TESTS += knob
test_knob_OBJS := daemon/knob.c daemon/knob_io.c daemon/knob_rule.c daemon/dev.c daemon/util.c daemon/sysfs.c daemon/nl_netdev.c daemon/nl_ethtool.c daemon/genl.c daemon/ethstats.c \
		  daemon/vqp.c daemon/vqp_parse.c daemon/rate.c daemon/log.c
UNIT_TESTS += util
test_util_OBJS := daemon/util.c
# log: the sd-daemon(3) priority prefix in a file, none on a terminal (a real pty)
UNIT_TESTS += log
test_log_OBJS := daemon/log.c
# event log: reasons in display form once, in the JSON and the log line
UNIT_TESTS += act_event
test_act_event_OBJS := daemon/act_event.c daemon/util.c daemon/log.c

# controllers (pure laws + guard) in closed loop against tests/unit/plant.c models (owner: law)
UNIT_TESTS += law_qlimit law_poll law_zc guard
LAW_TEST_OBJS := daemon/guard.c tests/unit/plant.c
test_law_qlimit_OBJS := daemon/law_qlimit.c $(LAW_TEST_OBJS)
test_law_poll_OBJS := daemon/law_poll.c $(LAW_TEST_OBJS)
test_law_zc_OBJS := daemon/law_zc.c $(LAW_TEST_OBJS)
test_guard_OBJS := daemon/guard.c

# policy schema (test_policy); API bodies, atomic install from files, -C and positions
# (test_policy_load); both with the helpers of policy_fixture.c (owner: policy)
POLICY_TEST_OBJS := daemon/policy.c daemon/policy_schema.c daemon/policy_pos.c \
		    daemon/policy_state.c daemon/guard.c daemon/apierr.c daemon/log.c daemon/util.c
UNIT_TESTS += policy policy_load
test_policy_OBJS := $(POLICY_TEST_OBJS) tests/unit/policy_fixture.c
test_policy_load_OBJS := $(POLICY_TEST_OBJS) tests/unit/policy_fixture.c

# policy PUT: an inverted pair names the bound the request changed
UNIT_TESTS += policy_put
test_policy_put_OBJS := $(POLICY_TEST_OBJS)

# qdisc backlog: RTM_NEWQDISC parsing and the qdisc -> TX queue map (owner: tcq)
UNIT_TESTS += tcq
test_tcq_OBJS := daemon/tcq.c daemon/util.c

# vqpair provider: genl reply parsers, p99 of the log2 histogram, interval arithmetic, and
# the knob table against include/vqpair.h (owner: vqp)
UNIT_TESTS += vqp
test_vqp_OBJS := daemon/vqp_parse.c daemon/vqp.c daemon/knob.c daemon/knob_io.c daemon/knob_rule.c daemon/dev.c daemon/util.c \
		 daemon/sysfs.c daemon/nl_netdev.c daemon/nl_ethtool.c daemon/genl.c \
		 daemon/ethstats.c daemon/rate.c daemon/log.c

# decide: the control stage in closed loop on a hand-built device, journal faked in the test
UNIT_TESTS += decide
test_decide_OBJS := daemon/decide.c daemon/decide_signals.c daemon/decide_view.c \
		    daemon/law_qlimit.c daemon/law_poll.c daemon/law_zc.c \
		    daemon/guard.c daemon/policy.c daemon/policy_schema.c daemon/policy_pos.c \
		    daemon/policy_state.c daemon/apierr.c daemon/knob.c daemon/knob_io.c daemon/knob_rule.c daemon/dev.c daemon/util.c \
		    daemon/sysfs.c daemon/nl_netdev.c daemon/nl_ethtool.c daemon/genl.c \
		    daemon/ethstats.c daemon/vqp.c daemon/vqp_parse.c daemon/rate.c daemon/log.c \
		    daemon/runtime.c
