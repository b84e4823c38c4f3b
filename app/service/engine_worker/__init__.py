"""The engine worker process: everything it runs, and the Qt-free half of talking to it.

The GUI runs the engine (pure Python, holding the GIL) in a process of its own so the GUI thread
never stalls. The Qt side is a thin adapter, app/ui/engine_process.py (replies as signals on the
GUI thread, the start timeout, restarts); app/ui/live.py and app/ui/advisor.py use it.
Everything here is Qt-free (tests/test_layering.py), so the process starts fast.

    main.py          the process's main (`serve`) and its jobs; the message protocol
    wire.py          how a reply (a Prediction's arrays: megabytes) crosses the pipe
    replica.py       the project's copy in the worker, brought up to date by the edited
                     containers only (and the GUI's in-process snapshots)
    result_cache.py  recent engine results by the digest of their inputs (undo/redo, baseline)
    heap.py          memory and garbage-collection policy: keep freed pages, collect when idle
    client.py        the GUI process's end: the process, its pipe, reader and writer threads
                     (Channel) and the requests with the replica's parts (Requests)

Importing this package imports none of them (app.service.advice needs only replica.py).
"""
