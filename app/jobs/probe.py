"""The queue's probe, a job kind (``flask jobs probe``, and the queue's tests): counts ``steps`` steps of
``step_seconds`` each, reporting each; its first ``fail_attempts`` attempts fail at step ``fail_at`` (a retry seen at
work). It touches nothing else: it shows that workers take jobs, report, retry, cancel and recover."""

from __future__ import annotations

import time

from app.jobs.context import JobContext, JobFailed, Outcome

MAX_STEPS = 10_000


def run(context: JobContext) -> Outcome:
    params = context.params
    steps = min(int(params.get("steps", 10)), MAX_STEPS)
    pause = min(float(params.get("step_seconds", 0.1)), 60.0)
    fail_attempts = int(params.get("fail_attempts", 0))
    fail_at = int(params.get("fail_at", steps // 2))
    context.progress(0, steps)
    for step in range(1, steps + 1):
        time.sleep(pause)
        if context.attempt <= fail_attempts and step == fail_at:
            if params.get("permanent"):
                raise JobFailed(f"Проверка остановлена на шаге {step}, как просили.")
            raise RuntimeError(f"the probe fails at step {step} of attempt {context.attempt}, as asked")
        context.progress(step, steps)
    return Outcome(f"Проверка прошла, шагов: {steps}.", {"steps": steps, "attempt": context.attempt})
