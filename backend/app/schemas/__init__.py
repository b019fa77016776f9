"""Pydantic API schemas, one module per aggregate.

Names follow ``XCreate``/``XUpdate``/``XPublic``/``XsPublic``.
"""
