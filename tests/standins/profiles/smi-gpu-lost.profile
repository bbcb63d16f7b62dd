# A GPU lost from the bus, seen only through nvidia-smi: no NVML library or libcuda.so.1 where the loader looks, and
# nvidia-smi is on PATH but fails: a GPU fell off the bus (it exits 15).
nvml=absent
libcuda=absent
smi=gpu_lost
driver_version=535.104.05
cuda_version=12020
gpu_count=1
gpu0.name=NVIDIA A100-SXM4-40GB
gpu0.memory_mib=40960
gpu0.cc=8.0
