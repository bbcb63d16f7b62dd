# The driver was upgraded without a reboot: the loaded kernel module is older than the libraries.
nvml=version_mismatch
libcuda=ok
smi=version_mismatch
driver_version=535.104.05
cuda_version=12020
gpu_count=0
