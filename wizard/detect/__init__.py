"""Stage 1: detect — what this machine really has (driver, max CUDA, GPUs, CUDA/cuDNN libraries, Python, disk).

The driver chain and its warnings live in `chain.py`; each source is one small module behind one
`Reading` (`nvml`, `smi`, `kernel_module`, `libcuda`), run under `deadline` so nothing can hang.
"""
