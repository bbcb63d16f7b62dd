# No NVIDIA stack at all: no libnvidia-ml.so.1, no libcuda.so.1, no nvidia-smi.
nvml=absent
libcuda=absent
smi=absent
gpu_count=0
