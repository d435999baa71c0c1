#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Where a null job's time goes through kohaku.ko, from the guest's trace.

KOHAKU_VM_BENCH=1 KOHAKU_VM_BENCH_PROFILE=trace tests/vm/run-vm.sh records,
in the VM, the driver's tracepoints (kohaku_submit, _dispatch, _retire),
the scheduler's switches and wakeups, the workqueues and the entry and exit
of every ioctl(2), over 200 null jobs of bench/kh_bench_jobs on kohaku.ko
(-s job -r 1 -j 200: the timed loop, then SUBMIT and WAIT timed apart).
The trace lands raw in the serial log; this sums it up per job: the
SUBMIT ioctl and its parts, the card's stepping (dispatch to retire) and
which thread did it, the WAIT ioctl, user space between, thread switches.

  bench/vm_trace_phases.py [build/vm/serial.log.txt]

Each event costs the guest about a microsecond under TCG, so the parts add
up to more than the untraced benchmark's job; compare them with each other.
"""
import re
import statistics
import sys

EV = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s*(.*)$')


def load(path):
    text = open(path, errors='replace').read()
    for begin, end in (('KHVM-TRACE-BEGIN', 'KHVM-TRACE-END'),
                       ('TRACE-BEGIN', 'TRACE-END')):
        if begin in text:
            text = text.split(begin, 1)[1].split(end, 1)[0]
            break
    else:
        sys.exit('no trace in %s (KOHAKU_VM_BENCH_PROFILE=trace)' % path)
    evs = []
    for line in text.splitlines():
        m = EV.match(line)
        if m:
            evs.append({'comm': m.group(1).strip(), 'pid': int(m.group(2)),
                        'cpu': int(m.group(3)), 't': float(m.group(4)) * 1e6,
                        'ev': m.group(5), 'arg': m.group(6)})
    return evs


def job_of(e):
    m = re.search(r'\bjob=(\d+)', e['arg'])
    return int(m.group(1)) if m else None


def main():
    evs = load(sys.argv[1] if len(sys.argv) > 1 else 'build/vm/serial.log.txt')
    bench = next((e['pid'] for e in evs if e['comm'] == 'kh_bench_jobs'), None)
    if bench is None:
        sys.exit('no kh_bench_jobs in the trace')
    # the bench's ioctls: (enter, exit)
    calls, enter = [], None
    for i, e in enumerate(evs):
        if e['pid'] != bench:
            continue
        if e['ev'] == 'sys_enter':
            enter = i
        elif e['ev'] == 'sys_exit' and enter is not None:
            calls.append((enter, i))
            enter = None
    by_job = {}
    for i, e in enumerate(evs):
        j = job_of(e)
        if j is not None and e['ev'] in ('kohaku_submit', 'kohaku_dispatch',
                                         'kohaku_retire'):
            by_job.setdefault(j, {})[e['ev']] = i
    # a job: the ioctl its kohaku_submit falls in, then the next ioctl (WAIT)
    rows = []
    for k in range(len(calls) - 2):
        s0, s1 = calls[k]
        q = next((i for i in range(s0, s1) if evs[i]['ev'] == 'kohaku_submit'), None)
        if q is None:
            continue
        w0, w1 = calls[k + 1]
        n0 = calls[k + 2][0]
        if any(evs[i]['ev'] == 'kohaku_submit' for i in range(w0, w1)):
            continue        # the timed loop's run_job pairs only
        j = by_job.get(job_of(evs[q]), {})
        if 'kohaku_dispatch' not in j or 'kohaku_retire' not in j:
            continue
        d, r = evs[j['kohaku_dispatch']], evs[j['kohaku_retire']]
        t = lambda i: evs[i]['t']
        span = range(s0, n0)
        rows.append({
            'job (SUBMIT entry to the next)': t(n0) - t(s0),
            'SUBMIT entry -> queued (kohaku_submit)': t(q) - t(s0),
            'queued -> dispatch': d['t'] - t(q),
            'dispatch -> retire (the card)': r['t'] - d['t'],
            'retire -> WAIT entry': t(w0) - r['t'],
            'WAIT ioctl': t(w1) - t(w0),
            'WAIT returns -> next SUBMIT': t(n0) - t(w1),
            'SUBMIT ioctl, entry to exit': t(s1) - t(s0),
            'thread switches': sum(1 for i in span if evs[i]['ev'] == 'sched_switch'),
            'engine worker runs': sum(1 for i in span
                                      if evs[i]['ev'] == 'workqueue_execute_start'
                                      and 'kh_engine_run' in evs[i]['arg']),
            'stepped in SUBMIT (the submitter)': 1 if r['pid'] == bench and r['t'] < t(s1) else 0,
        })
    if not rows:
        sys.exit('no SUBMIT + WAIT pairs in the trace')
    print('%d null jobs through kohaku.ko (traced; us unless counted)' % len(rows))
    print('%-40s %9s %9s' % ('', 'median', 'min'))
    for key in rows[0]:
        v = [r[key] for r in rows]
        if key in ('thread switches', 'engine worker runs', 'stepped in SUBMIT (the submitter)'):
            print('%-40s %9.2f %9.0f  (mean, min)' % (key, statistics.mean(v), min(v)))
        else:
            print('%-40s %9.1f %9.1f' % (key, statistics.median(v), min(v)))


if __name__ == '__main__':
    main()
