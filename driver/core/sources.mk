# driver/core sources, shared by the Makefile (libkohaku) and Kbuild (kohaku.ko).
KH_CORE_SOURCES := kh_bo.c kh_check.c kh_check_mat.c kh_check_pool.c kh_check_vec.c kh_dev.c kh_dispatch.c kh_dma.c kh_dxa.c kh_engine.c kh_enum.c \
	kh_file.c kh_fw.c kh_fw_boot.c kh_fw_image.c kh_ioctl.c kh_job.c kh_job_data.c kh_lease.c kh_mbox.c \
	kh_irq.c kh_clk.c kh_maint.c kh_mbox_data.c kh_cpu_flush.c kh_mem.c kh_mesh.c kh_pool_bounds.c kh_query.c kh_reset.c kh_submit.c kh_util.c \
	kh_xdma.c
