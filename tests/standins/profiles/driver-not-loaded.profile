# The driver's user-space libraries (535.104.05, CUDA 12.2) are installed but the kernel module is not
# loaded: NVML says NVML_ERROR_DRIVER_NOT_LOADED, nvidia-smi "couldn't communicate with the NVIDIA driver".
nvml=driver_not_loaded
libcuda=not_loaded
smi=driver_not_loaded
driver_version=535.104.05
cuda_version=12020
gpu_count=0
