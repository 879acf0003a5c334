# Tests of the access models.
