"""The queue side: the Celery app, dispatching, and the worker's task runner."""
