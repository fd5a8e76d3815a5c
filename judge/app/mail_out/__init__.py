"""What leaves the judge: the outbox (one row per reader), the sender that drains it, press routing,
the results' maps, the wording of phases, the operator's alarms.
"""
