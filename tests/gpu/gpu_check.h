#pragma once
// A tiny check harness for test programs that must build without Qt (the GPU machine has no
// Qt): count checks, print failures with their location, end with "N passed, N failed".
// Exit code 77 means "skipped" (no GPU); ctest maps it with SKIP_RETURN_CODE 77.
#include <cstdio>
#include <string>

namespace wb::gpucheck {

inline constexpr int kSkipExitCode = 77;

class Harness {
public:
    void check(bool ok, const std::string& what, const char* file, int line) {
        if (ok) {
            ++m_passed;
            return;
        }
        ++m_failed;
        std::printf("FAIL %s:%d: %s\n", file, line, what.c_str());
    }
    int passed() const { return m_passed; }
    int failed() const { return m_failed; }
    // Prints the summary and returns the process exit code (0 only when nothing failed).
    int finish() const {
        std::printf("%d passed, %d failed\n", m_passed, m_failed);
        return m_failed == 0 ? 0 : 1;
    }
    int skip(const std::string& reason) const {
        std::printf("skipped: %s\n", reason.c_str());
        return kSkipExitCode;
    }

private:
    int m_passed = 0;
    int m_failed = 0;
};

} // namespace wb::gpucheck

// CHECK(h, condition) and CHECK_MSG(h, condition, text): the condition's text is the message.
#define WB_CHECK(h, cond) (h).check(static_cast<bool>(cond), #cond, __FILE__, __LINE__)
#define WB_CHECK_MSG(h, cond, msg)                                                                 \
    (h).check(static_cast<bool>(cond), std::string(#cond) + " — " + (msg), __FILE__, __LINE__)
