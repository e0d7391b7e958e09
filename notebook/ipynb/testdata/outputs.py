"""Reads notebooks that jupyter nbconvert --execute ran and says, for each,
every ✗ line and every error in its cells' outputs; exits 1 if any."""
import json
import sys

bad = 0
for path in sys.argv[1:]:
    nb = json.load(open(path, encoding="utf-8"))
    ticks = 0
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                bad += 1
                print("%s: cell %s: %s: %s" % (path, cell.get("id"), out.get("ename"), out.get("evalue")))
            text = out.get("text", "")
            text = "".join(text) if isinstance(text, list) else text
            for line in text.splitlines():
                if line.startswith("✗"):
                    bad += 1
                    print("%s: cell %s: %s" % (path, cell.get("id"), line))
                elif line.startswith("✓"):
                    ticks += 1
    print("%s: %d ✓ lines" % (path, ticks))
sys.exit(1 if bad else 0)
