"""The order mail: what one mail does to a power's orders, postal habits on an order line, the error flag.
"""
