"""The server-sent event stream: each new state fanned out to every open page."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any


class Hub:
    """Fans each new state out to every open event stream."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[dict[str, Any] | None]] = set()

    def subscribe(self) -> asyncio.Queue[dict[str, Any] | None]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=8)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        self._queues.discard(queue)

    @property
    def listeners(self) -> int:
        return len(self._queues)

    def publish(self, state: dict[str, Any] | None) -> None:
        """A state for every stream (None ends them); a slow one loses its oldest."""
        for queue in self._queues:
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(state)


def sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def event_stream(
    hub: Hub,
    first: dict[str, Any],
    max_events: int | None = None,
    keepalive: float = 15.0,
) -> AsyncIterator[str]:
    """The current state, then every new one; ends after `max_events`, or when the hub
    publishes None (the server is stopping)."""
    queue = hub.subscribe()
    try:
        yield "retry: 2000\n\n"
        yield sse("state", first)
        sent = 1
        while max_events is None or sent < max_events:
            try:
                state = await asyncio.wait_for(queue.get(), keepalive)
            except TimeoutError:
                yield ": keepalive\n\n"
                continue
            if state is None:
                return
            yield sse("state", state)
            sent += 1
    finally:
        hub.unsubscribe(queue)
