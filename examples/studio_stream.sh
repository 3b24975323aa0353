#!/usr/bin/env bash
# A "studio" on this machine: Debian's ffmpeg renders a test pattern with the wall-clock time
# burnt in and serves it as live HLS (H.264 in MPEG-TS segments, with EXT-X-PROGRAM-DATE-TIME
# so the table page can measure the delay) on http://127.0.0.1:PORT/live.m3u8.
#
#   examples/studio_stream.sh [--webrtc] [PORT] [RECORD_DIR]   # default port 8090; Ctrl-C stops it
#   punto ... PATCH /api/admin/tables/live-1 {"video": {"hls_url": "http://127.0.0.1:8090/live.m3u8"}}
#
# With --webrtc the same picture is also served over WebRTC: examples/whep_studio.py (aiortc)
# takes it raw through a named pipe and answers WHEP offers on
# http://127.0.0.1:PORT+1/whep (and /whep/360p, /whep/180p: lower qualities):
#   {"video": {"whep_url": "http://127.0.0.1:8091/whep", "hls_url": "http://127.0.0.1:8090/live.m3u8"}}
#
# The clock is burnt in twice: as text for people, and in the top-left corner as 24 blocks
# (16×24 pixels each, black 0 / white 1, least significant first) holding the capture time
# in milliseconds since the epoch modulo 2^24, which a page can read from the frames
# (benchmarks/bench_video_latency.py does).
#
# A still of the picture, 320 pixels wide and refreshed every 2 s, is at
# http://127.0.0.1:PORT/still.jpg: the lobby's tile of the table ({"video": {"still_url": …}}).
#
# With RECORD_DIR the studio also keeps a recording, as a real studio's media server does
# (video by game number): 2-second HLS segments named by their wall-clock start and a
# playlist with EXT-X-PROGRAM-DATE-TIME (rec-<start>.m3u8) in RECORD_DIR, which should be
# the table's folder under the server's PUNTO_RECORDINGS_DIR (e.g. $PUNTO_RECORDINGS_DIR/
# live-1). One encoding feeds both (ffmpeg's tee muxer); the server prunes the recording
# after PUNTO_VIDEO_RETENTION (24 h), and `punto video prune` does it by hand.
#
# Needs ffmpeg (apt-get install ffmpeg) and python3. The web server sends
# Access-Control-Allow-Origin: * so the table page (another origin) may read the playlist.
set -euo pipefail
WEBRTC=""
if [ "${1:-}" = "--webrtc" ]; then WEBRTC=1; shift; fi
PORT="${1:-8090}"
RECORD="${2:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
PYTHON="${PYTHON:-python3}"
command -v ffmpeg >/dev/null || { echo "studio_stream: ffmpeg is missing (apt-get install ffmpeg)" >&2; exit 2; }
DIR="$(mktemp -d "${TMPDIR:-/tmp}/punto-studio.XXXXXX")"
cleanup() {
  trap - EXIT INT TERM
  kill "${FFMPEG:-}" "${HTTP:-}" "${WHEP:-}" 2>/dev/null || true
  wait 2>/dev/null || true  # ffmpeg finishes its files (the recording's playlist) first
  rm -rf "$DIR"
}
trap cleanup EXIT INT TERM
LIVE_FLAGS=delete_segments+program_date_time+omit_endlist
if [ -n "$RECORD" ]; then
  mkdir -p "$RECORD"
  RECORD="$(cd "$RECORD" && pwd)"
  case "$RECORD" in *[:\|\[\]]*) echo "studio_stream: RECORD_DIR may not contain : | [ ]" >&2; exit 2 ;; esac
  STAMP="$(date -u +%Y%m%dT%H%M%S)"
  # The recording's segments are named by their wall-clock start and their number (unique
  # across restarts, and two segments begun in one second keep a file each).
  OUTPUT=(-map "[v]" -map 1:a -f tee
    "[f=hls:hls_time=1:hls_list_size=6:hls_flags=$LIVE_FLAGS]$DIR/live.m3u8|[f=hls:onfail=ignore:hls_time=2:hls_list_size=0:hls_flags=program_date_time+omit_endlist+temp_file+second_level_segment_index:strftime=1:hls_segment_filename=$RECORD/$STAMP-%Y%m%dT%H%M%S-%%05d.ts]$RECORD/rec-$STAMP.m3u8")
else
  OUTPUT=(-map "[v]" -map 1:a -f tee "[f=hls:hls_time=1:hls_list_size=6:hls_flags=$LIVE_FLAGS]$DIR/live.m3u8")
fi
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
TEXT="drawtext=text='PUNTO STUDIO %{localtime\\:%H\\\\\\:%M\\\\\\:%S}':x=(w-tw)/2:y=h-th-40:fontsize=32:fontcolor=white:box=1:boxcolor=black@0.6"
[ -f "$FONT" ] && TEXT="$TEXT:fontfile=$FONT"
# ffmpeg runs in a session of its own: only cleanup() signals it, once, so that it ends
# cleanly and writes the recording's last playlist (a second signal while it writes it may
# leave it empty).
SPLIT=",split[v][s0]"
OUTPUT+=(-map "[s]" -f image2 -update 1 -q:v 6 "$DIR/still.jpg")
if [ -n "$WEBRTC" ]; then
  # the WebRTC media server's feed: the picture itself (raw frames through a named pipe),
  # so that no second encoder stands between the studio and its viewers
  mkfifo "$DIR/picture.yuv"
  "$PYTHON" "$HERE/whep_studio.py" --port $((PORT + 1)) --source "$DIR/picture.yuv" --size 640x360 --qualities 360p,180p &
  WHEP=$!
  SPLIT=",split=3[v][r][s0]"
  OUTPUT+=(-map "[r]" -f rawvideo -pix_fmt yuv420p -flush_packets 1 "$DIR/picture.yuv")
fi
# The capture time: each frame stamped with the wall clock (RTCTIME) as it leaves the
# realtime filter, then the 24-block code of its milliseconds drawn from that stamp.
BITS="16+219*mod(floor(mod(floor(T*1000)\,16777216)/pow(2\,floor(X/16)))\,2)"
VIDEO="[0:v]realtime,settb=1/1000,setpts=RTCTIME/1000,split[a][b];[b]crop=384:24:0:0,geq=lum=$BITS:cb=128:cr=128[c];[a][c]overlay=0:0,settb=1/25,setpts=N,$TEXT$SPLIT;[s0]fps=1/2,scale=320:-2[s]"
setsid ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=640x360:rate=25" \
  -re -f lavfi -i "sine=frequency=440:sample_rate=44100" \
  -filter_complex "$VIDEO" \
  -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -g 25 -keyint_min 25 -sc_threshold 0 \
  -c:a aac -b:a 64k \
  "${OUTPUT[@]}" &
FFMPEG=$!
cd "$DIR"
python3 - "$PORT" <<'PY' &
import http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()
    def log_message(self, *args):
        pass
Handler.extensions_map[".m3u8"] = "application/vnd.apple.mpegurl"
Handler.extensions_map[".ts"] = "video/mp2t"
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
HTTP=$!
echo "studio_stream: http://127.0.0.1:$PORT/live.m3u8 (segments in $DIR)${RECORD:+, recording in $RECORD}${WEBRTC:+, WHEP on http://127.0.0.1:$((PORT + 1))/whep}"
wait -n "$FFMPEG" "$HTTP" ${WHEP:-}
