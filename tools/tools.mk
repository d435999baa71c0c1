# Tools: kh-trace, the trace-to-timeline converter (tools/kh_trace.c).  It
# links the model objects directly for its --demo mode, and json-c.
TOOL_BINS += $(BUILD)/kh-trace

$(BUILD)/kh-trace: $(BUILD)/obj/tools/kh_trace.o $(BUILD)/obj/libruntime/cli/json_put.o \
		$(patsubst %.c,$(BUILD)/obj/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(KH_JSON_LIBS) -lm

# its JSON through json-c, as the CLI's (KH_JSON_*: libruntime/runtime.mk),
# written as strict UTF-8 by the CLI's own cli_json_put (json_put.c);
# --version: the tree's one version, kohaku.h's (the Makefile's KH_VERSION)
$(BUILD)/obj/tools/kh_trace.o: CFLAGS += $(KH_JSON_CFLAGS) -DKH_VERSION='"$(KH_VERSION)"'
$(BUILD)/obj/tools/kh_trace.o: libruntime/kohaku.h
