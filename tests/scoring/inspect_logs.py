"""Inspect AI logs written by ``inspect_ai`` itself, offline, for the reader's tests.

``python tests/scoring/inspect_logs.py DIR`` runs two small evals with ``mockllm/model``
answering from a script and writes their logs to DIR: ``arith`` (4 samples × 3 epochs, two
scorers; one sample raises, one is stopped by a time limit) and ``echo`` (a second task
whose sample ids repeat ``arith``'s). Each scripted output carries its usage: without one,
``inspect_ai`` would fetch a tokenizer's data file from the network to count tokens.

It runs in a process of its own, which ends as soon as the logs are written: ``inspect_ai``
leaves a worker thread that would keep the test process alive for seconds after the tests.
"""

from __future__ import annotations

import os
import sys

#: The samples of the ``arith`` task: the ids that misbehave, on purpose.
CRASH, SLOW = "crash", "slow"
EPOCHS = 3


def write_logs(folder: str) -> None:
    """Run both evals, logs into ``folder``."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import includes, match
    from inspect_ai.solver import Generate, Solver, TaskState, generate, solver
    from inspect_ai.util import LimitExceededError

    def output(text: str) -> ModelOutput:
        scripted = ModelOutput.from_content("mockllm/model", text)
        scripted.usage = ModelUsage(input_tokens=10, output_tokens=2, total_tokens=12)
        return scripted

    @solver
    def misbehave() -> Solver:
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            if state.sample_id == CRASH:
                raise RuntimeError("scripted failure")
            if state.sample_id == SLOW:  # as Inspect stops a sample at its time limit
                raise LimitExceededError("time", value=2, limit=1)
            return state

        return solve

    arith = Task(
        name="arith",
        dataset=[
            Sample(id="add", input="1+1", target="2"),
            Sample(id="mul", input="2*3", target="6"),
            Sample(id=CRASH, input="?", target="1"),
            Sample(id=SLOW, input="?", target="1"),
        ],
        solver=[misbehave(), generate()],
        scorer=[match(), includes()],
    )
    echo = Task(
        name="echo",
        dataset=[Sample(id="add", input="say 3", target="3")],
        solver=generate(),
        scorer=match(),
    )
    for task, answers in ((arith, ["2", "5", "6", "6", "2", "7"]), (echo, ["3", "3", "4"])):
        model = get_model("mockllm/model", custom_outputs=[output(a) for a in answers])
        eval(
            task,
            model=model,
            epochs=EPOCHS,
            log_dir=folder,
            display="none",
            max_samples=1,
            fail_on_error=False,
        )


if __name__ == "__main__":
    write_logs(sys.argv[1])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
