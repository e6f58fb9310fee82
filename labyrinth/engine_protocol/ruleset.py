"""A rule set that lives in another program: an external engine behind the rule-set protocol.

:class:`EngineRuleSet` answers ``open_moves(state)`` and ``decide(state)``
like a built-in :class:`~labyrinth.rules.RuleSet`, by asking an engine over
the JSON-lines protocol (:mod:`labyrinth.engine_protocol`,
``docs/engine-protocol.md``). So every audit path (walks, exhaustive,
regress, stats, the store and ``--resume``, local workers, Ray) runs an
engine unchanged. The engine process starts lazily, on the first question
asked in a process: each forked or Ray worker starts its own, and never
uses one inherited from its parent. It is closed by :meth:`close` (the rule
set is a context manager), at worker exit, and by ``atexit`` as a backstop.

Answers are cached per state (a walk's states are asked once, by the walker,
and audited from the cache), and :meth:`decide_many` sends several states
per request to engines that said ``"batch": true`` in their handshake.
A rule set is named ``engine:COMMAND`` (``get_rule_set("engine:./my-engine
--fast")``), which is how campaigns store and resume it.

:attr:`EngineRuleSet.order` is the order the audits ask it in: the one the
rule set was made with (``--order``), else the one the engine prefers (its
hello's ``order``), else breadth-first. The order changes how many requests
are sent and what each holds, never an answer, so never a finding.
"""

import atexit
import collections
import weakref

from labyrinth.engine_protocol.client import ENGINE_TIMEOUT, EngineProcess
from labyrinth.engine_protocol.messages import ORDERS
from labyrinth.errors import LabyrinthError
from labyrinth.rules.base import Decision, RuleSetBase
from labyrinth.rules.sets import ENGINE_PREFIX, register_family

__all__ = ["BATCH", "EngineRuleSet"]
#: states per request to an engine that takes batches
BATCH = 256
#: answers kept per rule set (a 51x51 walk has 2601 states)
_CACHE = 8192

_LIVE = weakref.WeakSet()
_PROCESSES = {}
_AT_END = Decision("", {}, ())


class EngineRuleSet(RuleSetBase):
    """The rules of an external engine run as ``command``; ``timeout`` seconds per request.

    ``name`` is the engine's own name once it has answered the handshake,
    its command before; ``command`` never changes (campaigns are keyed on it).
    """

    #: its answers name the engine's rules; it is asked in batches, its walks in lockstep, its subtrees audited
    #: in Python (:mod:`verify._subtree`), not in the kernel
    explains = True
    external = True

    def __init__(self, command, *, timeout=None, order=None):
        command = command.strip()
        if not command:
            raise LabyrinthError("give the engine's command line", token=ENGINE_PREFIX)
        if order is not None and order not in ORDERS:
            raise LabyrinthError(f"the order of states is {' or '.join(ORDERS)}", token=str(order))
        self.command = command
        self.timeout = ENGINE_TIMEOUT if timeout is None else timeout
        self._order = order
        self._process = _PROCESSES.get(command)  # rule sets of one command share one engine in a process
        if self._process is None:
            self._process = _PROCESSES[command] = EngineProcess(command, timeout=self.timeout)
        self._cache = collections.OrderedDict()
        _LIVE.add(self)

    @property
    def name(self):
        return self._process.label

    @property
    def info(self):
        """The engine's handshake (:class:`~labyrinth.engine_protocol.EngineInfo`), starting it if needed."""
        return self._engine().info

    @property
    def latency(self):
        """Round-trip times of this process's requests (:class:`~labyrinth.engine_protocol.Latency`)."""
        return self._process.latency

    @property
    def order(self):
        """``"breadth-first"`` or ``"depth-first"``: as chosen for this rule set, else as the engine prefers
        (its handshake, read once: a closed engine is not restarted to ask again)."""
        if self._order:
            return self._order
        known = self._process.info
        return (known if known is not None else self.info).order

    def take_latency(self):
        """The latency figures since the last call (a unit of work reads its own share)."""
        return self._process.latency.take()

    def _engine(self):
        p = self._process
        if p.running and not p.owned():  # inherited through fork: start our own
            p.close()
            p.info = None
            self._cache.clear()
        p.timeout = self.timeout
        if not p.running:
            p.start()
            _close_at_exit()
        return p

    def start(self):
        """Start the engine now (the CLI does, so that a bad command fails before any work)."""
        return self._engine().info

    # --- the rule-set protocol -----------------------------------------------------------
    def decide(self, state):
        """The engine's :class:`~labyrinth.rules.Decision` at ``state``: open moves, reasons, force."""
        return self.decide_many([state])[0]

    def open_moves(self, state):
        """The letters of the moves the engine allows at ``state``."""
        return self.decide(state).open

    def decide_many(self, states):
        """Decisions for several states: uncached ones asked in batches when the engine takes them."""
        out = [None] * len(states)
        ask = []
        for i, s in enumerate(states):
            if s.at_end():  # never asked (the protocol's promise): nothing is open on the end corner
                out[i] = _AT_END
                continue
            key = (s.n, s.path)
            hit = self._cache.get(key)
            if hit is None:
                ask.append(i)
            else:
                self._cache.move_to_end(key)
                out[i] = hit
        if ask:
            engine = self._engine()
            step = min(BATCH, engine.info.max_batch or BATCH) if engine.info.batch else 1
            for k in range(0, len(ask), step):
                part = ask[k: k + step]
                for i, d in zip(part, engine.decide([states[i] for i in part])):
                    out[i] = d
                    self._remember((states[i].n, states[i].path), d)
        return out

    def _remember(self, key, decision):
        self._cache[key] = decision
        if len(self._cache) > _CACHE:
            self._cache.popitem(last=False)

    # --- lifetime --------------------------------------------------------------------------
    def close(self):
        """Shut the engine down (``quit``, then a kill after a grace period); it restarts if asked again.

        Rule sets of the same command in one process share its engine: closing one closes it for all.
        """
        self._process.close()
        self._cache.clear()

    def __repr__(self):
        return f"EngineRuleSet({self.command!r})"

    def __getstate__(self):  # a pickled rule set (Ray) travels as its command; the copy starts its own engine
        return {"command": self.command, "timeout": self.timeout, "order": self._order}

    def __setstate__(self, state):
        self.__init__(state["command"], timeout=state["timeout"], order=state.get("order"))


def close_all():
    """Close every engine this process started (worker exit, interpreter exit), with what each started.

    By process, not only by live rule set: a rule set already collected leaves its engine running.
    """
    for item in [*_LIVE, *_PROCESSES.values()]:
        try:
            item.close()
        except Exception:  # noqa: BLE001 - shutting down: never mask the real exit
            pass


_FINALIZED = set()


def _close_at_exit():
    """Have this process close its engines when it ends: ``atexit``, and multiprocessing's finalizers.

    A multiprocessing worker leaves through ``os._exit`` (no ``atexit``) and
    clears the finalizers it inherited, so each process registers its own.
    An engine whose verifier dies without either still sees its stdin close.
    """
    import os
    from multiprocessing import util

    pid = os.getpid()
    if pid not in _FINALIZED:
        _FINALIZED.add(pid)
        util.Finalize(None, close_all, exitpriority=100)


atexit.register(close_all)


def _by_name(command, off, on, *, engine_timeout=None, engine_order=None):
    """``get_rule_set("engine:COMMAND")``: the engine's rules, which cannot be switched here."""
    if off or on:
        raise LabyrinthError("an external engine's rules cannot be switched on or off here",
                             token=",".join(sorted(off | on)))
    return EngineRuleSet(command, timeout=engine_timeout, order=engine_order)


register_family(ENGINE_PREFIX, _by_name)
