# The model benchmark (not a test): simulated cycles per second, saturated
# and idle, against a baseline measured in the same run.  `make bench`.
# Like the model tests it links the model objects directly.
BENCH_BINS += $(BUILD)/bench/kh_bench

$(BUILD)/bench/kh_bench: $(BUILD)/obj/bench/kh_bench.o \
		$(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

bench: $(BUILD)/bench/kh_bench
	$(BUILD)/bench/kh_bench $(BENCH_ARGS)

# The driver's benchmark: job latency (a null job, a 64-instruction SX
# job), a null ioctl, 8 submitters, card accesses per job, bring-up cycles
# per node, through libkohaku's public API: in-process, and on kohaku.ko in
# the VM beside it, the two side by side (KOHAKU_VM_BENCH=1
# tests/vm/run-vm.sh; KOHAKU_VM_BENCH_PROFILE=trace for where a job's time
# goes, bench/vm_trace_phases.py).
BENCH_BINS += $(BUILD)/bench/kh_bench_jobs

$(BUILD)/bench/kh_bench_jobs: $(BUILD)/obj/bench/kh_bench_jobs.o $(LIBKOHAKU_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench-jobs: $(BUILD)/bench/kh_bench_jobs
	$(BUILD)/bench/kh_bench_jobs $(BENCH_ARGS)

# The POOL unit's interpreter: simulated instructions per second, one core
# on an ALU loop and eight on a DataRAM loop, against a native C loop and a
# decode-every-time interpreter (bench/kh_bench_iss.c; docs/model.md).
BENCH_BINS += $(BUILD)/bench/kh_bench_iss

$(BUILD)/bench/kh_bench_iss: $(BUILD)/obj/bench/kh_bench_iss.o \
		$(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

.PHONY: bench-iss
bench-iss: $(BUILD)/bench/kh_bench_iss
	$(BUILD)/bench/kh_bench_iss $(BENCH_ARGS)

# The data path: BO_WRITE and BO_READ bytes per second against memcpy of the
# same bytes, in-process and on kohaku.ko (bench/kh_bench_dma.c).
BENCH_BINS += $(BUILD)/bench/kh_bench_dma

$(BUILD)/bench/kh_bench_dma: $(BUILD)/obj/bench/kh_bench_dma.o $(LIBKOHAKU_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-dma
bench-dma: $(BUILD)/bench/kh_bench_dma
	$(BUILD)/bench/kh_bench_dma $(BENCH_ARGS)

# The DXA unit: tiles copied into scratch units by the model's dxa unit,
# host bytes per second and simulated bytes per cycle, against memcpy of
# the same bytes in the same run (bench/kh_bench_dxa.c).
BENCH_BINS += $(BUILD)/bench/kh_bench_dxa

$(BUILD)/bench/kh_bench_dxa: $(BUILD)/obj/bench/kh_bench_dxa.o $(LIBKOHAKU_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-dxa
bench-dxa: $(BUILD)/bench/kh_bench_dxa
	$(BUILD)/bench/kh_bench_dxa $(BENCH_ARGS)

# The POOL firmware's kernels on the vector unit: their inner loops'
# cycles on the model against the latency table's prediction, and the
# share of the seed's peak issue (bench/kh_bench_kernels.c); needs
# build/firmware/pool.fw (make firmware).
BENCH_BINS += $(BUILD)/bench/kh_bench_kernels

$(BUILD)/bench/kh_bench_kernels: $(BUILD)/obj/bench/kh_bench_kernels.o \
		$(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

.PHONY: bench-kernels
bench-kernels: $(BUILD)/bench/kh_bench_kernels
	$(BUILD)/bench/kh_bench_kernels $(BENCH_ARGS)
