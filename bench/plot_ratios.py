#!/usr/bin/env python3
"""Draws a `pk bench --json` file as an SVG bar chart: each case's ratio against its peer (our
rate / the peer's; 1 = as fast), its target as a mark, the spread of our runs as a whisker.
Standard library only.

    pk bench --json results.json && python3 bench/plot_ratios.py results.json chart.svg
"""
import json
import sys
from xml.sax.saxutils import escape


def spread_ratio(row):
    """The ratio range our runs' min and max times give (the peer's median fixed)."""
    ours = row["ours"]
    ratio = row["ratio"]
    return ratio * ours["median_ms"] / ours["max_ms"], ratio * ours["median_ms"] / ours["min_ms"]


def plot(results, out):
    rows = [r for r in results["results"] if r.get("ratio") is not None]
    if not rows:
        raise SystemExit("plot_ratios: no case with a peer in the JSON")
    top = max(max(spread_ratio(r)[1], r.get("target") or 0, 1.0) for r in rows)
    scale_max = max(1.2, round(top * 1.1 + 0.05, 1))
    label_w, bar_w, row_h, head, foot = 330, 420, 22, 58, 46
    width, height = label_w + bar_w + 70, head + row_h * len(rows) + foot
    x = lambda v: label_w + bar_w * min(v, scale_max) / scale_max
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="20" font-size="14" font-weight="bold">pk bench on {escape(results["backend"])}: '
           f'{escape(results["device"])}</text>',
           f'<text x="10" y="38" fill="#555">ratio = our rate / the peer\'s (1: as fast); '
           f'| target; whisker: spread of our runs. {escape(("pk " + results["pk_version"]) if "pk_version" in results else "")} '
           f'{escape(results.get("commit", ""))}, {escape(results["date"])}</text>']
    for i, r in enumerate(rows):
        y = head + i * row_h
        lo, hi = spread_ratio(r)
        colour = "#3b7dd8" if not r.get("target") or r["ratio"] >= r["target"] else "#d8763b"
        svg.append(f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end">{escape(r["name"])} '
                   f'{escape(r["size"])}</text>')
        svg.append(f'<rect x="{label_w}" y="{y + 4}" width="{x(r["ratio"]) - label_w:.1f}" height="{row_h - 8}" '
                   f'fill="{colour}"/>')
        svg.append(f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y + row_h / 2}" y2="{y + row_h / 2}" '
                   f'stroke="black"/>')
        if r.get("target"):
            svg.append(f'<line x1="{x(r["target"]):.1f}" x2="{x(r["target"]):.1f}" y1="{y + 1}" y2="{y + row_h - 1}" '
                       f'stroke="#c00" stroke-width="2"/>')
        svg.append(f'<text x="{x(max(r["ratio"], hi)) + 5:.1f}" y="{y + 15}">{r["ratio"]:.3f}</text>')
    axis_y = head + row_h * len(rows) + 4
    svg.append(f'<line x1="{label_w}" x2="{label_w + bar_w}" y1="{axis_y}" y2="{axis_y}" stroke="black"/>')
    ticks = [t / 10 for t in range(0, int(scale_max * 10) + 1, 2 if scale_max <= 2 else 5)]
    for t in ticks:
        svg.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{axis_y}" y2="{axis_y + 5}" stroke="black"/>')
        svg.append(f'<text x="{x(t):.1f}" y="{axis_y + 18}" text-anchor="middle">{t:g}</text>')
    svg.append(f'<line x1="{x(1):.1f}" x2="{x(1):.1f}" y1="{head}" y2="{axis_y}" stroke="#888" '
               f'stroke-dasharray="4 3"/>')
    peers = sorted({r["peer"] for r in rows})
    svg.append(f'<text x="10" y="{height - 8}" fill="#555">peers: {escape(", ".join(peers))}</text>')
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        print(f"plot_ratios: cannot read '{argv[1]}': {e}", file=sys.stderr)
        return 1
    plot(results, argv[2])
    print(f"plot_ratios: wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
