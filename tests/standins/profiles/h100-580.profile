# One H100 80GB HBM3 on driver 580.159.04 (maximum CUDA 13.0): every figure is what the real NVML said on a
# lent H100 server (tests/data/real/h100/detect.json, 2026-11-26), bus id and power cap from its nvidia-smi.
nvml=ok
libcuda=ok
smi=ok
driver_version=580.159.04
cuda_version=13000
gpu_count=1
gpu0.name=NVIDIA H100 80GB HBM3
gpu0.memory_mib=81559
gpu0.cc=9.0
gpu0.uuid=GPU-8da80f26-db89-1c77-e269-e16df2ccf2a3
gpu0.bus_id=00000000:00:06.0
gpu0.power_cap_w=700
