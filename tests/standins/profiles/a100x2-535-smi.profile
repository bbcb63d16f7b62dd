# The two A100s of a100x2-535, seen only through nvidia-smi (libnvidia-ml.so.1 is not on the library
# path of the wizard's Python): the XML, and compute_cap from a driver new enough to report it.
nvml=absent
libcuda=absent
smi=ok
driver_version=535.104.05
cuda_version=12020
gpu_count=2
gpu0.name=NVIDIA A100-SXM4-80GB
gpu0.memory_mib=81920
gpu0.cc=8.0
gpu0.uuid=GPU-8932f937-d72c-4106-c12f-20bd9faed9f6
gpu0.bus_id=00000000:07:00.0
gpu0.power_cap_w=400
gpu1.name=NVIDIA A100-SXM4-80GB
gpu1.memory_mib=81920
gpu1.cc=8.0
gpu1.uuid=GPU-3b5c8a21-5e0f-9d7a-41c2-7f2d6a1b9e04
gpu1.bus_id=00000000:0F:00.0
gpu1.power_cap_w=400
