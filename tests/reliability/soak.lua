-- wrk script of the soak test (tests/reliability/test_soak.py): mixed reads and writes of all five apps.
--
-- test_soak.py writes a Lua data file and passes its path in TROVE_SOAK_DATA; it returns a table
--   { origin = "http://127.0.0.1:PORT",
--     readers  = { { cookie = "trove_session=…", poem = "poem id" }, … },  -- every session
--     creators = { "trove_session=…", … },  -- sessions that also create records (kept out of list reads)
--     cards = { 1, 2, … } }  -- the deck's card ids
-- Requests go round OPS in turn, each from the next session. Writes carry Origin (same-origin), the session
-- cookie and a JSON body. Records created with a unique name ("Soak poem t1-42", "Soak card …",
-- "Soak student …") are counted when answered 201, so the test can compare them with the database.
-- done() prints one line starting with "SOAK " of key=value pairs, then one "SOAK-ERROR " line per sampled
-- error answer (status, X-Request-Id, body).

local data = dofile(os.getenv("TROVE_SOAK_DATA"))

local CITIES = { 3176959, 3176883, 3169921, 3041563, 3039163, 3413829, 2193733, 4036284 }
local SEARCHES = { "fl", "re", "an", "sant", "al", "firenze", "pr", "auck" }
local RHYMES = { "cat", "moon", "night", "see" }
local PATHS = {  -- reading progress in The Lamp at Gull Rock, along its choices
  { "1" }, { "1", "2" }, { "1", "3", "6" }, { "1", "2", "4", "9", "14" }, { "1", "2", "5", "10", "15" },
}
local MAX_SAMPLES = 20

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
  sent, writes = 0, 0
  non2xx = 0
  poems_sent, poems_created = 0, 0
  cards_sent, cards_created = 0, 0
  students_sent, students_created = 0, 0
  samples, sampled = "", 0
end

local function json_list(items, format)
  local parts = {}
  for i, item in ipairs(items) do parts[i] = format(item) end
  return "[" .. table.concat(parts, ",") .. "]"
end

local function unique(kind)
  return kind .. " t" .. id .. "-" .. counter
end

-- Each op: function(session, n) returning method, path, body (nil for reads).
local OPS = {
  -- Oblique Strategies
  function(s, n) return "GET", "/api/v1/strategies/random" end,
  function(s, n) return "PUT", "/api/v1/strategies/" .. data.cards[n % #data.cards + 1] .. "/favourite", "" end,
  function(s, n) return "GET", "/api/v1/strategies/today" end,
  function(s, n) return "DELETE", "/api/v1/strategies/" .. data.cards[(n + 5) % #data.cards + 1] .. "/favourite", "" end,
  function(s, n) return "GET", "/api/v1/strategies/favourites" end,
  -- City Roulette
  function(s, n) return "GET", "/api/v1/cities/nearby?lat=43.77&lon=11.25&radius_km=" .. (20 + n % 80) end,
  function(s, n) return "GET", "/api/v1/cities/search?q=" .. SEARCHES[n % #SEARCHES + 1] end,
  function(s, n)
    local chosen = {}
    for i = 1, n % #CITIES + 1 do chosen[i] = CITIES[(n + i) % #CITIES + 1] end
    return "PUT", "/api/v1/cities/collection", '{"cities":' .. json_list(chosen, function(g)
      return '{"geonameid":' .. g .. ',"favourite":' .. tostring(g % 2 == 0) .. '}'
    end) .. '}'
  end,
  function(s, n) return "GET", "/api/v1/cities/" .. CITIES[n % #CITIES + 1] end,
  function(s, n) return "GET", "/api/v1/cities/collection" end,
  -- Magnetic Poetry
  function(s, n) return "GET", "/api/v1/poetry/poems/" .. s.poem end,
  function(s, n)
    return "POST", "/api/v1/poetry/poems", '{"title":"' .. unique("Soak poem") .. '","board":{"word_set_id":"classics",'
      .. '"font":"serif","font_scale":1,"extra_words":["soak"],"magnets":[{"id":"m1","word":"love","x":0.'
      .. (n % 1000) .. ',"y":0.5,"rotation":0,"z":1},{"id":"m2","word":"soak","x":0.2,"y":0.3,"rotation":5,"z":2}]}}',
      "poem"
  end,
  function(s, n) return "GET", "/api/v1/poetry/rhymes?word=" .. RHYMES[n % #RHYMES + 1] end,
  function(s, n) return "GET", "/api/v1/poetry/poems" end,
  -- Choose Your Destiny
  function(s, n) return "GET", "/api/v1/stories" end,
  function(s, n) return (n % 2 == 0) and "PUT" or "DELETE", "/api/v1/stories/after-closing/library", "" end,
  function(s, n) return "GET", "/api/v1/stories/gull-rock" end,
  function(s, n)
    local path = PATHS[n % #PATHS + 1]
    return "PUT", "/api/v1/stories/gull-rock/progress", '{"chapter_id":"' .. path[#path] .. '","path":'
      .. json_list(path, function(c) return '"' .. c .. '"' end) .. '}'
  end,
  function(s, n) return "GET", "/api/v1/stories/library" end,
  -- YogiYogini
  function(s, n) return "GET", "/api/v1/yoga/students" end,
  function(s, n) return "POST", "/api/v1/yoga/students", '{"name":"' .. unique("Soak student") .. '"}', "student" end,
  function(s, n) return "GET", "/api/v1/yoga/stats" end,
  function(s, n) return "GET", "/api/v1/yoga/venues" end,
  -- Oblique Strategies: own cards
  function(s, n) return "POST", "/api/v1/strategies/mine", '{"strategy":"' .. unique("Soak card") .. '"}', "card" end,
}

function request()
  counter = counter + 1
  local n = counter * 2 + id  -- the two threads interleave
  local op = OPS[counter % #OPS + 1]
  local session = data.readers[n % #data.readers + 1]
  local method, path, body, kind = op(session, n)
  local cookie = session.cookie
  if kind ~= nil then  -- creations come from their own sessions, whose lists are never read
    cookie = data.creators[n % #data.creators + 1]
    if kind == "poem" then poems_sent = poems_sent + 1
    elseif kind == "card" then cards_sent = cards_sent + 1
    else students_sent = students_sent + 1 end
  end
  sent = sent + 1
  local headers = { ["Cookie"] = cookie }
  if method ~= "GET" then
    writes = writes + 1
    headers["Origin"] = data.origin
    if body ~= "" then headers["Content-Type"] = "application/json" end
  end
  if body == "" then body = nil end
  return wrk.format(method, path, headers, body)
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    if sampled < MAX_SAMPLES then
      sampled = sampled + 1
      local rid = headers["X-Request-Id"] or headers["x-request-id"] or ""
      samples = samples .. "SOAK-ERROR status=" .. status .. " request_id=" .. rid .. " body="
        .. string.gsub(string.sub(body or "", 1, 300), "\n", " ") .. "\n"
    end
  elseif status == 201 then
    if string.find(body, '"Soak poem ', 1, true) then poems_created = poems_created + 1
    elseif string.find(body, '"Soak card ', 1, true) then cards_created = cards_created + 1
    elseif string.find(body, '"Soak student ', 1, true) then students_created = students_created + 1 end
  end
end

function done(summary, latency, requests)
  local totals = { sent = 0, writes = 0, non2xx = 0, poems_sent = 0, poems_created = 0, cards_sent = 0,
                   cards_created = 0, students_sent = 0, students_created = 0 }
  local all_samples = ""
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do totals[name] = totals[name] + (thread:get(name) or 0) end
    all_samples = all_samples .. (thread:get("samples") or "")
  end
  local e = summary.errors
  io.write(string.format(
    "SOAK completed=%d sent=%d writes=%d non2xx=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d "
    .. "status_errors=%d poems_sent=%d poems_created=%d cards_sent=%d cards_created=%d students_sent=%d "
    .. "students_created=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f duration_s=%.2f\n",
    summary.requests, totals.sent, totals.writes, totals.non2xx, e.connect, e.read, e.write, e.timeout, e.status,
    totals.poems_sent, totals.poems_created, totals.cards_sent, totals.cards_created, totals.students_sent,
    totals.students_created, latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    summary.duration / 1e6))
  io.write(all_samples)
end
