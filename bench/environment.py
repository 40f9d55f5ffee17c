"""What a result depends on: the machine (lscpu) and library versions."""

import os
import platform
import subprocess


def machine() -> dict:
    info = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return info
    for line in out.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("Model name", "CPU(s)", "Thread(s) per core", "CPU max MHz", "L2 cache",
                           "L3 cache", "Hypervisor vendor"):
            info[key.strip()] = value.strip()
    return info


def versions(selected) -> dict:
    out = {}
    for p in selected:
        try:
            out[p.name] = p.version()
        except Exception:
            out[p.name] = "?"
    return out


def summary(selected) -> str:
    m = machine()
    cpu = m.get("Model name", "?")
    lines = [f"machine: {cpu}, {m.get('CPU(s)', m['cpus'])} CPU(s), python {m['python']}, {m['platform']}",
             "versions: " + ", ".join(f"{k} {v}" for k, v in versions(selected).items())]
    return "\n".join(lines)
