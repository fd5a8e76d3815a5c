"""The running judge: one asyncio process holding the door, the worker, the sender and the scheduler.
"""
