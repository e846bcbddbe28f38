# web_index.cmake: the served index.html of the bundled browser client
# (cmake -DIN=web/index.html -DOUT=build/web/index.html -P web_index.cmake):
# the source page preloads each module of web/js; the bundle has none of
# them to preload (esbuild's chunks are found by app.js), so those links go.
file(READ "${IN}" page)
string(REGEX REPLACE "<link rel=\"modulepreload\" href=\"[^\"]*\">" "" page "${page}")
file(WRITE "${OUT}" "${page}")
