# One Tesla V100-SXM2-16GB on driver 470.57.02 (maximum CUDA 11.4). libnvidia-ml.so.1 and libcuda.so.1
# are not on the library path, so only nvidia-smi answers; being older than 510 it rejects compute_cap.
nvml=absent
libcuda=absent
smi=ok
driver_version=470.57.02
cuda_version=11040
gpu_count=1
gpu0.name=Tesla V100-SXM2-16GB
gpu0.memory_mib=16160
gpu0.cc=7.0
gpu0.uuid=GPU-4f5e3a2b-9c8d-7e6f-5a4b-3c2d1e0f9a8b
gpu0.bus_id=00000000:00:1E.0
gpu0.power_cap_w=300
