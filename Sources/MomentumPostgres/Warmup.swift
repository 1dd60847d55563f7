// placeholder for dependency warmup
