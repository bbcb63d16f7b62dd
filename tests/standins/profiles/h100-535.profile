# One H100 80GB HBM3 (Hopper, compute capability 9.0) on driver 535.104.05 (maximum CUDA 12.2).
nvml=ok
libcuda=ok
smi=ok
driver_version=535.104.05
cuda_version=12020
gpu_count=1
gpu0.name=NVIDIA H100 80GB HBM3
gpu0.memory_mib=81559
gpu0.cc=9.0
gpu0.uuid=GPU-5e2b7c90-3d1a-4f6e-b8c2-71a0d9e4f356
gpu0.bus_id=00000000:19:00.0
gpu0.power_cap_w=700
