"""What the GUI asks of the model, without Qt: validate and simulate the current scenario (and the
pinned baseline), evaluate an operation's priorities, keep a copy of the project in step with
the GUI's edits. Used in the GUI process (a worker thread) and in the engine worker process
(app/service/worker.py, started by app/ui/engine_process.py).

    predict.py  validate + simulate -> Prediction; failure messages
    advice.py   the priority advisor's runs (one engine run per priority)
    replica.py  copies of the project that follow the edits (snapshots, replica parts)
    worker.py   the engine worker process: a replica of the project, requests over a pipe

No Qt here (tests/test_layering.py): the worker process imports only app.domain, app.engine and
this package, so it starts fast.
"""
