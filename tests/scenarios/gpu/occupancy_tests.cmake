# Tests of the occupancy models.
