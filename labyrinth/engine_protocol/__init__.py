"""The rule-engine protocol: JSON lines between the verifier and a rule engine in any language.

* :mod:`~labyrinth.engine_protocol.messages`: the messages, built and checked
  (an answer becomes a :class:`~labyrinth.rules.Decision`);
* :mod:`~labyrinth.engine_protocol.client`: an engine as a child process
  (handshake, per-request timeout, crash and garbage detection, latency);
* :mod:`~labyrinth.engine_protocol.server`: this package's rule sets served
  over the protocol (``labyrinth engine --rules X``).

The rule set that audits use is :class:`labyrinth.rules.engine.EngineRuleSet`;
the protocol itself is written up in ``docs/engine-protocol.md``.
"""

from labyrinth.engine_protocol.client import (
    ENGINE_TIMEOUT,
    EngineProcess,
    Latency,
    median_seconds,
)
from labyrinth.engine_protocol.messages import (
    BREADTH_FIRST,
    DEPTH_FIRST,
    ORDERS,
    PROTOCOL,
    PUZZLE,
    EngineInfo,
    decision_to_json,
    hello_request,
    parse_answer,
    parse_hello,
)
from labyrinth.engine_protocol.server import StateCache, answer, serve

__all__ = [
    "BREADTH_FIRST",
    "DEPTH_FIRST",
    "ENGINE_TIMEOUT",
    "EngineInfo",
    "EngineProcess",
    "Latency",
    "ORDERS",
    "PROTOCOL",
    "PUZZLE",
    "StateCache",
    "answer",
    "decision_to_json",
    "hello_request",
    "median_seconds",
    "parse_answer",
    "parse_hello",
    "serve",
]
