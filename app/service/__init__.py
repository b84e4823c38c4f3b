"""What the GUI asks of the model, without Qt: validate and simulate the current scenario (and the
pinned baseline), evaluate an operation's priorities, keep a copy of the project in step with
the GUI's edits. Used in the GUI process (a worker thread) and in the engine worker process
(app/service/engine_worker/main.py, started by app/ui/engine_process.py).

    predict.py  validate + simulate -> Prediction; failure messages
    advice.py   the priority advisor's runs (one engine run per priority)
    engine_worker/  the engine worker process, all of it (its main, the pipe's protocol, the
                replica of the project, the result cache, the heap policy): see its __init__

No Qt here (tests/test_layering.py): the worker process imports only app.domain, app.engine and
this package, so it starts fast.
"""
