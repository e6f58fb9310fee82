"""The walk statistic over worker processes gives the figures of one process."""

from labyrinth.engine.walker import walk_statistics
from labyrinth.rules import get_rule_set


def test_two_jobs_give_the_figures_of_one():
    rules = get_rule_set("default")
    one = walk_statistics(9, rules, 12, seed=3, cap=50)
    two = walk_statistics(9, rules, 12, seed=3, cap=50, jobs=2)
    assert (one.mean, one.walks, one.stuck, one.censored) == (two.mean, two.walks, two.stuck, two.censored)
    assert one.stuck == one.runs - one.censored and one.walks >= one.runs
