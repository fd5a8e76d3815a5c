"""The resolver of a movement phase: the DATC chapter 5 equations and the guess algorithm.

Every unit gets an index; its (legal, de-duplicated) order becomes integers
in parallel lists, built once. Three kinds of orders carry a decision that
the equations of DATC 5.B define: a MOVE succeeds, a SUPPORT is given (not
cut), a CONVOY works (its fleet is not dislodged). ``_resolve`` finds the
value of a decision the way Lucas Kruijswijk's guess algorithm does: it
adjudicates the order, and when the answer turns out to depend on a guess of
its own value it tries both guesses; one consistent answer is taken, none or
two mean a circular movement (all moves succeed) or a convoy paradox, settled
by the game's paradox rule (Szykman, or Descartes, see rules.py).

Following DATC 5.D, a CONVOY adjudicates the moves attacking its fleet
directly instead of resolving them, which keeps every dependency cycle a
single clean cycle (Pandin's paradox).

Nothing here knows about order text, powers' order sets or results: see
movement_phase.py for the phase around it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from judge.core.adjudicator.convoys import step_closed
from judge.core.adjudicator.rules import Rules
from judge.core.adjudicator.topology import Topology
from judge.core.adjudicator.validation import CONVOY, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, Interpreted
from judge.core.units import Unit, UnitType, province_of

# Enum members read through the class cost ~0.2 us each on Python 3.11: bind them once.
_FLEET = UnitType.FLEET

K_HOLD = 0
K_MOVE = 1
K_SUPPORT_HOLD = 2
K_SUPPORT_MOVE = 3
K_CONVOY = 4

_UNRESOLVED = 0
_GUESSING = 1
_RESOLVED = 2

_KIND_CODE = {MOVE: K_MOVE, SUPPORT_HOLD: K_SUPPORT_HOLD, SUPPORT_MOVE: K_SUPPORT_MOVE, CONVOY: K_CONVOY}

# The supports or convoy fleets of a unit that has none: one shared empty list, never appended
# to (a unit's list is replaced by a new one when it gets its first), so most units cost no list.
_NONE: list[int] = []


class MovementResolver:
    """Resolves every decision of one movement phase; read the answers from the public lists."""

    __slots__ = (
        "closed_steps",
        "convoy_fleets",
        "convoyed",
        "dep",
        "dest",
        "dest_loc",
        "fleet_moves",
        "h2h",
        "helpers",
        "hold_supports",
        "kind",
        "matched",
        "move_supports",
        "movers",
        "moves_to",
        "n",
        "partial_cuts",
        "power",
        "protected",
        "prov",
        "rail",
        "rail_path",
        "rail_unowned",
        "res",
        "rules",
        "seas",
        "state",
        "target",
        "unit_at",
        "units",
        "weight",
        "where",
    )

    def __init__(
        self,
        topo: Topology,
        units: Sequence[Unit],
        rules: Rules,
        prov: list[str],
        unit_at: dict[str, int],
    ) -> None:
        """Every unit holds until :meth:`set_order` (or the phase's fast reading) says otherwise.

        ``prov`` is each unit's province, ``unit_at`` the index of the unit in a
        province: the phase worked them out to read the orders, so they are shared.
        """
        n = len(units)
        self.n = n
        self.units = units
        self.rules = rules
        self.seas = topo.seas
        self.power = [u.power for u in units]
        self.prov = prov
        self.unit_at = unit_at
        self.kind = [K_HOLD] * n
        self.weight = [1] * n
        """Each unit's own strength: 1, or what :meth:`set_strengths` gives it."""
        self.partial_cuts = False
        self.closed_steps: dict[int, Collection[frozenset[str]]] = {}
        """For a convoyed army, the steps (pairs of provinces) no convoy may carry it across."""
        self.dest = [""] * n
        self.dest_loc = [""] * n
        self.target = [-1] * n
        self.convoyed = [False] * n
        self.rail = [False] * n
        # Special rule railway only: a train's provinces and the centres on them its power does not own.
        self.rail_path: dict[int, tuple[str, ...]] = {}
        self.rail_unowned: dict[int, frozenset[str]] = {}
        self.where = topo.province
        self.fleet_moves = topo.fleet
        self.movers: list[int] = []
        """The units ordered to move."""
        self.helpers: list[int] = []
        """The units ordered to support or convoy."""

    def set_strengths(self, strengths: Mapping[str, int], partial_cuts: bool = False) -> None:
        """Units counting for more than one (the Renaissance game's elite units: 2), by location:
        such a unit moves, holds, defends and supports with that strength. With ``partial_cuts``
        (the Renaissance game's second edition) an attack by a lone unit of strength 1, with no
        support ordered for it, takes one point from such a unit's support instead of all of it."""
        for i, unit in enumerate(self.units):
            self.weight[i] = strengths.get(unit.location, 1)
        self.partial_cuts = partial_cuts

    def set_closed_steps(self, closed: Mapping[str, Collection[frozenset[str]]]) -> None:
        """The steps closed to the convoys of some armies, by the army's location (the Renaissance
        game's straits held by another power): no chain of convoys carrying that army may step
        between the two provinces of such a pair."""
        for i, unit in enumerate(self.units):
            steps = closed.get(unit.location)
            if steps:
                self.closed_steps[i] = steps

    def set_order(self, i: int, order: Interpreted) -> None:
        """Unit ``i`` executes ``order`` (a legal order of a movement phase)."""
        code = _KIND_CODE.get(order.kind)
        if code is None:
            return
        self.kind[i] = code
        (self.movers if code == K_MOVE else self.helpers).append(i)
        location = order.target
        if location is not None:
            self.dest_loc[i] = location
            self.dest[i] = self.where.get(location) or province_of(location)
        other = order.other
        if other is not None:
            self.target[i] = self.unit_at[self.where[other.location]]
        if order.via_convoy:
            self.convoyed[i] = True
        if order.via_rail:
            self.rail[i] = True
            self.rail_path[i] = order.rail_path
            self.rail_unowned[i] = order.rail_unowned

    def prepare(self) -> None:
        """Once every order is set: match supports and convoys, settle what needs no guess."""
        n = self.n
        rules = self.rules
        # In the units' order, as every list of movers below (the guesses are then made in one order).
        self.movers.sort()
        self.helpers.sort()
        movers, helpers = self.movers, self.helpers
        kind, dest, target, power, convoyed = self.kind, self.dest, self.target, self.power, self.convoyed
        if rules.adjacent_convoy == "intent":
            # An army ordered to an adjacent province goes by convoy when a fleet of
            # its own power is (legally) ordered to convoy it there (DATC 4.A.3).
            for f in helpers:
                if kind[f] == K_CONVOY:
                    a = target[f]
                    if kind[a] == K_MOVE and dest[a] == dest[f] and power[a] == power[f]:
                        convoyed[a] = True
        moves_to: dict[str, list[int]] = {}
        self.moves_to = moves_to
        for i in movers:
            movers_there = moves_to.get(dest[i])
            if movers_there is None:
                moves_to[dest[i]] = [i]
            else:
                movers_there.append(i)
        self._link(rules, self.fleet_moves)
        prov, rail, unit_at = self.prov, self.rail, self.unit_at
        self.state = state = [_UNRESOLVED] * n
        self.res = res = [False] * n
        # Supports and convoys that nobody attacks are given: settle them now, saving most
        # of the recursion in a typical phase.
        # So are moves by land into an empty province no other unit moves to: nothing can stop
        # them (attack 1 or more against hold 0, nothing to prevent), and nothing they depend
        # on can change that, so their value is final before any guess.
        for i in helpers:
            if prov[i] not in moves_to:
                state[i] = _RESOLVED
                res[i] = True
        for i in movers:
            if not convoyed[i] and not rail[i] and dest[i] not in unit_at and len(moves_to[dest[i]]) == 1:
                state[i] = _RESOLVED
                res[i] = True
        self.dep: list[int] = []
        self.protected: set[tuple[int, int]] = set()

    # ------------------------------------------------------------ set-up

    def _link(self, rules: Rules, fleet_moves: Mapping[str, frozenset[str]]) -> None:
        """Match supports and convoys to the orders they name; note head-to-head pairs."""
        n = self.n
        kind, dest, target, power = self.kind, self.dest, self.target, self.power
        self.move_supports = move_supports = [_NONE] * n
        self.hold_supports = hold_supports = [_NONE] * n
        self.convoy_fleets = convoy_fleets = [_NONE] * n
        self.matched = matched = [False] * n
        dest_loc, convoyed = self.dest_loc, self.convoyed
        for i in self.helpers:
            k = kind[i]
            t = target[i]
            if k == K_SUPPORT_HOLD:
                if kind[t] != K_MOVE:
                    hold_supports[t] = [*hold_supports[t], i]
                    matched[i] = True
            elif k == K_SUPPORT_MOVE:
                coast_ok = dest_loc[i] == dest[i] or dest_loc[i] == dest_loc[t]
                if (
                    coast_ok
                    and rules.foreign_coast_support == "named"
                    and dest_loc[i] != dest_loc[t]
                    and power[i] != power[t]
                    and self._coasts_in_reach(t, fleet_moves) > 1
                ):
                    # Seed 002: a foreign support must name the coast the fleet attacks.
                    coast_ok = False
                if kind[t] == K_MOVE and dest[t] == dest[i] and coast_ok:
                    move_supports[t] = [*move_supports[t], i]
                    matched[i] = True
            elif k == K_CONVOY and kind[t] == K_MOVE and dest[t] == dest[i] and convoyed[t]:
                convoy_fleets[t] = [*convoy_fleets[t], i]
                matched[i] = True
        self.h2h = h2h = [-1] * n
        rail, prov, unit_at = self.rail, self.prov, self.unit_at
        for i in self.movers:
            if convoyed[i] or rail[i]:
                continue
            j = unit_at.get(dest[i], -1)
            if j >= 0 and kind[j] == K_MOVE and dest[j] == prov[i] and not convoyed[j] and not rail[j]:
                h2h[i] = j

    def _coasts_in_reach(self, t: int, fleet_moves: Mapping[str, frozenset[str]]) -> int:
        """How many coasts of its destination province moving unit ``t`` could reach (0 for an army)."""
        unit = self.units[t]
        if unit.type is not _FLEET:
            return 0
        province = self.dest[t]
        return sum(1 for loc in fleet_moves.get(unit.location, ()) if loc.startswith(province + "/"))

    # ------------------------------------------------------------ driving

    def resolve_all(self) -> None:
        """Resolve every decision; afterwards ``res`` holds each order's answer."""
        kind, state, resolve = self.kind, self.state, self._resolve
        for i in range(self.n):
            if kind[i] != K_HOLD and state[i] != _RESOLVED:
                resolve(i)

    def _resolve(self, i: int) -> bool:
        state = self.state[i]
        if state == _RESOLVED:
            return self.res[i]
        if state == _GUESSING:
            if i not in self.dep:
                self.dep.append(i)
            return self.res[i]
        dep = self.dep
        old = len(dep)
        self.res[i] = False
        self.state[i] = _GUESSING
        first = self._adjudicate(i)
        if len(dep) == old:
            # No guess involved: final.
            if self.state[i] != _RESOLVED:
                self.res[i] = first
                self.state[i] = _RESOLVED
            return self.res[i]
        if dep[old] != i:
            # Depends on the guess of an order further up: stays a guess.
            dep.append(i)
            self.res[i] = first
            return first
        # Depends on its own guess: try the other one.
        self._forget(old)
        self.res[i] = True
        self.state[i] = _GUESSING
        second = self._adjudicate(i)
        if first == second:
            self._forget(old)
            self.res[i] = first
            self.state[i] = _RESOLVED
            return first
        self._backup_rule(old)
        return self._resolve(i)

    def _forget(self, old: int) -> None:
        """Drop the guesses made since the dependency list had ``old`` entries."""
        dep = self.dep
        for k in dep[old:]:
            self.state[k] = _UNRESOLVED
        del dep[old:]

    def _backup_rule(self, old: int) -> None:
        """No consistent resolution, or two: a circular movement or a convoy paradox."""
        cycle = self.dep[old:]
        convoys = [k for k in cycle if self.kind[k] == K_CONVOY]
        if convoys and self.rules.paradox == "descartes" and self._descartes(old, cycle, convoys):
            return
        self._forget(old)
        if convoys:
            # Szykman: the convoying fleets of the paradox do not convoy.
            for f in convoys:
                self.res[f] = False
                self.state[f] = _RESOLVED
        elif all(self.kind[k] == K_MOVE for k in cycle):
            for k in cycle:
                self.res[k] = True
                self.state[k] = _RESOLVED
        else:
            # Not possible with the standard rules; the DATC advises failing the whole cycle.
            for k in cycle:
                self.res[k] = False
                self.state[k] = _RESOLVED

    def _descartes(self, old: int, cycle: list[int], convoys: list[int]) -> bool:
        """Settle a convoy paradox by the Descartes rule; False when it cannot help (then Szykman).

        First, when the orders allow an outcome in which every convoy of the
        paradox goes through, that outcome is the simultaneous resolution and
        is taken (seed 002, example B). Otherwise the supports of the cycle are
        protected from the armies these fleets convoy: those armies neither
        cut nor, by dislodging, void them, so the sea battles are decided first
        (seed 002, examples A, C and D).
        """
        saved = (self.state[:], self.res[:], self.dep[:])
        self._forget(old)
        for f in convoys:
            self.res[f] = True
            self.state[f] = _RESOLVED
        if all(self._adjudicate_convoy(f) for f in convoys) and len(self.dep) == old:
            return True
        # Restore in place: frames further up hold references to these lists.
        self.state[:], self.res[:], self.dep[:] = saved
        fleets = set(convoys)
        armies = [a for a in range(self.n) if fleets.intersection(self.convoy_fleets[a])]
        supports = [s for s in cycle if self.kind[s] in (K_SUPPORT_HOLD, K_SUPPORT_MOVE)]
        new = {(s, a) for s in supports for a in armies} - self.protected
        if not new:
            return False
        self.protected.update(new)
        self._forget(old)
        return True

    # ------------------------------------------------------------ equations

    def _adjudicate(self, i: int) -> bool:
        kind = self.kind[i]
        if kind == K_MOVE:
            return self._adjudicate_move(i)
        if kind == K_CONVOY:
            return self._adjudicate_convoy(i)
        return self._adjudicate_support(i)

    def _adjudicate_move(self, i: int) -> bool:
        if self.convoyed[i] and not self.path(i):
            return False
        destination = self.dest[i]
        if self.rail[i]:
            if not self._rail_clear(i):
                return False
            # A move by railway never dislodges: it enters only a province left empty.
            j = self.unit_at.get(destination, -1)
            if j >= 0 and not (self.kind[j] == K_MOVE and self._resolve(j)):
                return False
        attack = self._attack_strength(i)
        opponent = self.h2h[i]
        if opponent >= 0:
            if attack <= self._defend_strength(opponent):
                return False
        elif attack <= self._hold_strength(destination):
            return False
        for k in self.moves_to[destination]:
            if k != i and attack <= self._prevent_strength(k):
                return False
        return True

    def _adjudicate_support(self, s: int) -> bool:
        """A support is given unless cut: attacked by a foreign unit that can arrive, or dislodged."""
        own_power = self.power[s]
        directed_at = self.dest[s] if self.kind[s] == K_SUPPORT_MOVE else ""
        for k in self.moves_to.get(self.prov[s], ()):
            if self.power[k] == own_power or (s, k) in self.protected or self.rail[k]:
                continue  # a move by railway cuts no support (special rule railway)
            if self.prov[k] == directed_at:
                # Attacked from where the support goes: cut only if dislodged.
                if self._resolve(k):
                    return False
                continue
            if not self.convoyed[k] or self.path(k):
                return False
        return True

    def _adjudicate_convoy(self, f: int) -> bool:
        """A convoy works unless its fleet is dislodged (attackers adjudicated directly, DATC 5.D)."""
        for k in self.moves_to.get(self.prov[f], ()):
            if self.state[k] == _RESOLVED:
                if self.res[k]:
                    return False
            elif self._adjudicate_move(k):
                return False
        return True

    def path(self, i: int) -> bool:
        """For a convoyed army: is there a chain of working convoys from its province to its destination?"""
        return self._chain(i, live=True)

    def _chain(self, i: int, live: bool) -> bool:
        """A chain of the convoys ordered for army ``i`` from its province to its destination, with
        ``live`` of convoys that work (else of every ordered one), never across a closed step."""
        fleets = self.convoy_fleets[i]
        if not fleets:
            return False
        seas, prov = self.seas, self.prov
        source, destination = self.prov[i], self.dest[i]
        closed = self.closed_steps.get(i, ())
        frontier = [f for f in fleets if source in seas[prov[f]] and not step_closed(closed, source, prov[f])]
        seen = set(frontier)
        while frontier:
            f = frontier.pop()
            if live and not self._resolve(f):
                continue
            here = seas[prov[f]]
            if destination in here and not step_closed(closed, prov[f], destination):
                return True
            for g in fleets:
                if g not in seen and prov[g] in here and not step_closed(closed, prov[f], prov[g]):
                    seen.add(g)
                    frontier.append(g)
        return False

    def _rail_clear(self, i: int) -> bool:
        """Whether the line is clear for train ``i``: after the turn's moves, no province it passes
        holds a unit of another power, and each supply centre it does not own holds one of its own
        (special rule railway)."""
        me = self.power[i]
        for province in self.rail_path[i]:
            there = self._power_after(province)
            if there is not None and there != me:
                return False
            if province in self.rail_unowned[i] and there != me:
                return False
        return True

    def _power_after(self, province: str) -> str | None:
        """The power whose unit stands in ``province`` once the moves are made (None: empty)."""
        for k in self.moves_to.get(province, ()):
            if self._resolve(k):
                return self.power[k]
        j = self.unit_at.get(province, -1)
        if j < 0 or (self.kind[j] == K_MOVE and self._resolve(j)):
            return None
        return self.power[j]

    def _support_count(self, supporters: list[int], excluded_power: str | None = None) -> int:
        """The strength of the given supports (each its unit's weight, 1 but in the Renaissance game)."""
        count = 0
        weight = self.weight
        for s in supporters:
            if self.power[s] == excluded_power:
                continue
            if self._resolve(s):
                count += weight[s]
            elif self.partial_cuts and weight[s] > 1:
                count += self._partly_cut(s)
        return count

    def _partly_cut(self, s: int) -> int:
        """What is left of the cut support of unit ``s`` (strength above one) under partial cuts:
        nothing when an attack from where it supports dislodges it or when a unit of strength
        above one, or with support ordered for it, attacks it; else one point less for each
        other attack that can arrive (the same attacks that cut it, :meth:`_adjudicate_support`)."""
        own_power = self.power[s]
        directed_at = self.dest[s] if self.kind[s] == K_SUPPORT_MOVE else ""
        weak = 0
        for k in self.moves_to.get(self.prov[s], ()):
            if self.power[k] == own_power or (s, k) in self.protected or self.rail[k]:
                continue
            if self.prov[k] == directed_at:
                if self._resolve(k):
                    return 0
                continue
            if self.convoyed[k] and not self.path(k):
                continue
            if self.weight[k] > 1 or self.move_supports[k]:
                return 0
            weak += 1
        return max(self.weight[s] - weak, 0)

    def _attack_strength(self, i: int) -> int:
        j = self.unit_at.get(self.dest[i], -1)
        if j < 0 or (self.h2h[i] < 0 and self.kind[j] == K_MOVE and self._resolve(j)):
            return self.weight[i] + self._support_count(self.move_supports[i])
        if self.power[j] == self.power[i]:
            return 0
        return self.weight[i] + self._support_count(self.move_supports[i], self.power[j])

    def _hold_strength(self, province: str) -> int:
        j = self.unit_at.get(province, -1)
        if j < 0:
            return 0
        if self.kind[j] == K_MOVE:
            return 0 if self._resolve(j) else self.weight[j]
        return self.weight[j] + self._support_count(self.hold_supports[j])

    def _defend_strength(self, j: int) -> int:
        return self.weight[j] + self._support_count(self.move_supports[j])

    def _prevent_strength(self, k: int) -> int:
        if self.convoyed[k] and not self.path(k):
            return 0
        if self.rail[k] and not self._rail_clear(k):
            return 0  # a train stopped on the way never reaches its destination
        opponent = self.h2h[k]
        if opponent >= 0 and self._resolve(opponent):
            return 0
        return self.weight[k] + self._support_count(self.move_supports[k])

    # ------------------------------------------------------------ answers

    def dislodged_by(self, i: int) -> int:
        """The index of the unit that dislodged unit ``i``, or -1."""
        if self.kind[i] == K_MOVE and self.res[i]:
            return -1
        for k in self.moves_to.get(self.prov[i], ()):
            if self.res[k]:
                return k
        return -1

    def final_location(self, i: int) -> str:
        return self.dest_loc[i] if self.kind[i] == K_MOVE and self.res[i] else self.units[i].location

    def had_route(self, i: int) -> bool:
        """Whether the convoys ordered for army ``i`` formed a chain before any fleet was dislodged."""
        return self._chain(i, live=False)

    def is_fleet(self, i: int) -> bool:
        return self.units[i].type is _FLEET
