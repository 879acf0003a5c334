// Fixture for qt_free_check_catches_a_leak: a Qt include the check must reject.
#include <QString>
