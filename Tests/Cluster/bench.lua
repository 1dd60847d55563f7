-- wrk's script for Tests/Cluster/bench.py: each request as one of the users whose bearer
-- tokens are the lines of $BENCH_TOKENS, in turn. BENCH_MODE=checkins posts a check-in with
-- an event id no other request has ($BENCH_RUN, the thread, a counter); BENCH_MODE=today
-- reads the dashboard. done() prints one JSON line for bench.py.
local tokens = {}
for line in io.lines(os.getenv("BENCH_TOKENS")) do
    tokens[#tokens + 1] = line
end
local mode = os.getenv("BENCH_MODE")
local run = os.getenv("BENCH_RUN")
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("thread_id", threads)
end

local counter = 0

function request()
    counter = counter + 1
    local token = tokens[(counter + thread_id) % #tokens + 1]
    local headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
    if mode == "checkins" then
        local body = string.format('{"eventId": "%s-%d-%d"}', run, thread_id, counter)
        return wrk.format("POST", "/v1/habits/walk/check-ins", headers, body)
    end
    return wrk.format("GET", "/v1/today", headers)
end

function done(summary, latency, requests)
    local errors = summary.errors
    io.write(string.format(
        '{"requests": %d, "seconds": %.3f, "non2xx": %d, "socket_errors": %d, "p50_ms": %.2f, "p99_ms": %.2f}\n',
        summary.requests, summary.duration / 1e6, errors.status,
        errors.connect + errors.read + errors.write + errors.timeout,
        latency:percentile(50) / 1e3, latency:percentile(99) / 1e3))
end
