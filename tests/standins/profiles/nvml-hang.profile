# A wedged GPU: nvmlInit never returns. nvidia-smi answers (it is run with its own timeout).
nvml=hang
libcuda=absent
smi=ok
driver_version=535.104.05
cuda_version=12020
gpu_count=1
gpu0.name=NVIDIA A100-SXM4-40GB
gpu0.memory_mib=40960
gpu0.cc=8.0
gpu0.uuid=GPU-aa11bb22-cc33-dd44-ee55-ff6677889900
