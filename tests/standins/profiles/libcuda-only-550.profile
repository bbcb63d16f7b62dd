# Only libcuda.so.1 (driver 550, maximum CUDA 12.4) can be loaded: no NVML library, no nvidia-smi.
nvml=absent
libcuda=ok
smi=absent
driver_version=550.54.14
cuda_version=12040
gpu_count=1
gpu0.name=NVIDIA H100 80GB HBM3
gpu0.memory_mib=81559
gpu0.cc=9.0
gpu0.uuid=GPU-1d2c3b4a-5f6e-7d8c-9b0a-1f2e3d4c5b6a
