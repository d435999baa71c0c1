# The test binaries, one per source file, listed once for both builds:
# the project's (kohaku.mk) and the kernel's selftests convention (Makefile).
# the ABI, buffers, jobs, refusals, fences, firmware, DMA, POOL
RT_TEST_NAMES := rt_api rt_bo rt_badargs rt_credit rt_multimesh rt_info rt_jobs \
	rt_layout rt_timeout rt_faults rt_fences rt_abi rt_threads rt_fw rt_pool rt_clocks \
	rt_dma rt_pci rt_mat
# the vec unit through libkohaku
RT_TEST_NAMES += rt_vec
# CU_DATA carried by jobs (ABI 0.5)
RT_TEST_NAMES += rt_jobdata
# the DXA unit's slots and copies (ABI 0.5)
RT_TEST_NAMES += rt_dxa
# kohakud's clients: processes sharing a card, bad clients (skipped elsewhere)
RT_TEST_NAMES += rt_clients
# the cpu unit (rv_pe) through libkohaku
RT_TEST_NAMES += rt_cpu
# what a job may reach: the buffers it names (ABI 0.8)
RT_TEST_NAMES += rt_reach
# mesh leases: the cpu unit for the file holding its mesh (ABI 0.8)
RT_TEST_NAMES += rt_lease
# a POOL unit's bounds: what its firmware computes stays in the job's buffers
RT_TEST_NAMES += rt_bounds
# a program's peer signals: a node awaiting another's CU_DATA (ABI 0.9)
RT_TEST_NAMES += rt_peer
# compiler artifacts: parse, check, run (docs/spec/artifact.md)
RT_TEST_NAMES += rt_artifact
# libkohaku's JSON reader, from inside (the artifacts' parser)
RT_TEST_NAMES += rt_json
# rt_pci tests the library's PCI discovery from inside (libruntime's
# internal header, hidden symbols), rt_json its JSON reader, rt_clients
# kohakud's count of files (kh_rt_daemon_cards): the project's static
# build only
RT_TEST_INTERNAL := rt_pci rt_json rt_clients
