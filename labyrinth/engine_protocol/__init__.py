"""The rule-engine protocol: JSON lines between the verifier and a rule engine in any language.

* :mod:`~labyrinth.engine_protocol.messages`: the messages, built and checked
  (an answer becomes a :class:`~labyrinth.rules.Decision`);
* :mod:`~labyrinth.engine_protocol.client`: an engine as a child process
  (handshake, per-request timeout, crash and garbage detection, latency);
* :mod:`~labyrinth.engine_protocol.server`: this package's rule sets served
  over the protocol (``labyrinth engine --rules X``).

* :mod:`~labyrinth.engine_protocol.ruleset`: an engine as a rule set
  (:class:`EngineRuleSet`, named ``engine:COMMAND`` wherever a rule set is
  named: importing this package registers the family with
  :func:`labyrinth.rules.register_family`).

The protocol itself is written up in ``docs/engine-protocol.md``.
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
from labyrinth.engine_protocol.ruleset import BATCH, EngineRuleSet
from labyrinth.engine_protocol.server import StateCache, answer, serve, warm

__all__ = [
    "BATCH",
    "BREADTH_FIRST",
    "DEPTH_FIRST",
    "ENGINE_TIMEOUT",
    "EngineInfo",
    "EngineRuleSet",
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
    "warm",
]
