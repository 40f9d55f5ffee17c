"""PNG plots of p50/p99 µs per encode against size, one panel per tokenizer."""


def sized_plot(rows, path, title) -> bool:
    """Writes the plot; False when matplotlib is missing or nothing ran."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in rows if "p50_us" in r]
    names = list(dict.fromkeys(r["tokenizer"] for r in rows))
    if not names:
        return False
    libs = list(dict.fromkeys(r["lib"] for r in rows))
    colours = {lib: f"C{i}" for i, lib in enumerate(libs)}
    fig, axes = plt.subplots(1, len(names), figsize=(5.5 * len(names), 4.5), squeeze=False)
    for ax, name in zip(axes[0], names):
        for lib in libs:
            pts = sorted((r["size"], r["p50_us"], r["p99_us"]) for r in rows
                         if r["tokenizer"] == name and r["lib"] == lib)
            if not pts:
                continue
            x = [p[0] for p in pts]
            ax.plot(x, [p[1] for p in pts], "o-", color=colours[lib], label=f"{lib} p50")
            ax.plot(x, [p[2] for p in pts], "--", color=colours[lib], alpha=0.6, label=f"{lib} p99")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("tokens per string")
        ax.set_ylabel("µs per encode")
        ax.set_title(name)
        ax.grid(True, which="both", alpha=0.3)
    handles = {}  # every library once, though not every panel has every library
    for ax in axes[0]:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    axes[0][-1].legend(handles.values(), handles.keys(), fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1))
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
