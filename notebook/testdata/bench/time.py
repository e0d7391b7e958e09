# Times the benchmark programs in CPython, one training step at a time:
#   python3 notebook/testdata/bench/time.py [steps]
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
for name, call in [("moons", "train(1)"), ("gpt", 'train(1, "olivia")')]:
    env = {}
    exec(open(os.path.join(here, "prelude.py")).read(), env)
    exec(open(os.path.join(here, name + ".star")).read(), env)
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        eval(call, env)
        times.append(time.perf_counter() - t)
    times.sort()
    print("%s: %.3f s per step (median of %d; fastest %.3f s)" % (name, times[len(times) // 2], steps, times[0]))
