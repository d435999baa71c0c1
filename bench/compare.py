#!/usr/bin/env python3
"""Two builds of the tree side by side: bench/compare.py OLD_BUILD/bench NEW_BUILD/bench ROUNDS

Each round runs kh_bench (-r 3), kh_bench_jobs (sim backend, -r 5) and
kh_bench_iss (-r 3) of both builds, alternately, the order flipped every
round, so a change in the machine's load hits both alike; then prints, per
scenario, the median and the minimum over the rounds of each build's own
CPU median, and the ratio new/old of the medians.  Not a test: the
machine is shared and noisy (docs/model.md "Performance")."""
import re, subprocess, sys, statistics as st
if len(sys.argv) != 4:
    sys.exit('usage: bench/compare.py OLD_BUILD/bench NEW_BUILD/bench ROUNDS')
old, new, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def parse_bench(out):
    r = {}
    for l in out.splitlines():
        f = l.split()
        if len(f) >= 11 and re.match(r'^[a-z0-9-]+$', f[0]) and f[1].isdigit() and f[0] not in ('idle', 'idle-2x2'):
            r['bench/' + f[0] + ' ns/cyc'] = float(f[6])
        m = re.match(r'^(idle\S*)\s.*cpu ([\d.]+) us', l)
        if m: r['bench/' + m.group(1) + ' us/1e9cyc'] = float(m.group(2))
    return r
def parse_jobs(out):
    r = {}
    for l in out.splitlines():
        f = l.split()
        if len(f) == 5 and f[0] == 'sim' and f[1] in ('syscall', 'ioctl', 'job', 'sx64', '8threads'):
            r['jobs/' + f[1] + ' cpu us'] = float(f[4])
            r['jobs/' + f[1] + ' med us'] = float(f[3])
    return r
def parse_iss(out):
    r = {}
    for l in out.splitlines():
        m = re.match(r'^(\w+)\s.*cpu min ([\d.]+) med ([\d.]+) s', l)
        if m: r['iss/' + m.group(1) + ' cpu s'] = float(m.group(3))
    return r
benches = [('kh_bench', ['-r', '3'], parse_bench),
           ('kh_bench_jobs', ['-b', 'sim', '-r', '5'], parse_jobs),
           ('kh_bench_iss', ['-r', '3'], parse_iss)]
res = {'old': {}, 'new': {}}
for i in range(rounds):
    order = [('old', old), ('new', new)] if i % 2 == 0 else [('new', new), ('old', old)]
    for name, args, parse in benches:
        for tag, d in order:
            out = subprocess.run([d + '/' + name] + args, capture_output=True, text=True).stdout
            for k, v in parse(out).items():
                res[tag].setdefault(k, []).append(v)
    print(f'round {i+1}/{rounds} done', file=sys.stderr, flush=True)
print(f'{"scenario":32} {"old med":>10} {"new med":>10} {"new/old":>8} {"old min":>10} {"new min":>10}')
for k in res['old']:
    o, n = res['old'][k], res['new'].get(k, [float('nan')])
    om, nm = st.median(o), st.median(n)
    print(f'{k:32} {om:10.3f} {nm:10.3f} {nm/om if om else float("nan"):8.3f} {min(o):10.3f} {min(n):10.3f}')
