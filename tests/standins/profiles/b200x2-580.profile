# Two B200 (Blackwell, compute capability 10.0, 183359 MiB each) on driver 580.82.07
# (maximum CUDA 13.0): jaxlib 0.4.23 cannot compile for them; JAX warns of cuBLAS 12.8 on them.
nvml=ok
libcuda=ok
smi=ok
driver_version=580.82.07
cuda_version=13000
gpu_count=2
gpu0.name=NVIDIA B200
gpu0.memory_mib=183359
gpu0.cc=10.0
gpu0.uuid=GPU-1c0e8a51-77b2-4a2e-9c1d-0b5e2f3a4c6d
gpu0.bus_id=00000000:1B:00.0
gpu0.power_cap_w=1000
gpu1.name=NVIDIA B200
gpu1.memory_mib=183359
gpu1.cc=10.0
gpu1.uuid=GPU-9a7d3e42-0c5b-41f8-8e6a-2d4c7b1f0e93
gpu1.bus_id=00000000:43:00.0
gpu1.power_cap_w=1000
