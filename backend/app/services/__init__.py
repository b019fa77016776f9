"""Business logic: the only code that queries the database. Tenant functions take
``workspace_id`` as a required keyword argument."""
