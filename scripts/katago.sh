#!/bin/sh
# The opt-in KataGo (docs/engines/katago.md): sh scripts/katago.sh installs it in .katago/
# (or $KATAGO_DIR), where the server finds it (then the computer's Go, the Go review and
# the explore board use it). Again quick the second time: each step is skipped when done.
#
# - the program and the network from PyPI's katrain 1.20.0 wheel (pip download, nothing else);
# - KataGo's OpenCL AppImage unpacked (--appimage-extract: no FUSE needed);
# - Debian's ocl-icd-libopencl1 and pocl-opencl-icd (OpenCL on the CPU) with apt when missing;
# - a tuner file of KataGo's default parameters (its own tuner crashes under pocl), the
#   configurations of its GTP and analysis engines, pocl's kernel cache;
# - a check that a 9x9 position is analysed.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
dir=${KATAGO_DIR:-$root/.katago}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
PYTHON=${PYTHON:-python3}
. scripts/_apt.sh

need_package /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ocl-icd-libopencl1 "KataGo (OpenCL's loader)"
need_package /etc/OpenCL/vendors/pocl.icd pocl-opencl-icd "KataGo (OpenCL on the CPU)"

if [ ! -x "$dir/squashfs-root/usr/bin/katago" ] || [ ! -f "$dir/model.bin.gz" ]; then
    if ! ls "$dir"/download/katrain-1.20.0-*.whl >/dev/null 2>&1; then
        echo "Downloading katrain 1.20.0 from PyPI (106 MB: KataGo and its network)..."
        "$PYTHON" -m pip download --quiet --no-deps katrain==1.20.0 -d "$dir/download"
    fi
    "$PYTHON" - "$dir" <<'EOF'
import glob, shutil, sys, zipfile
target = sys.argv[1]
wheel = glob.glob(f"{target}/download/katrain-1.20.0-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    for inside, outside in (
        ("katrain/KataGo/katago", "katago.AppImage"),
        ("katrain/models/b10c384h6nbttflrs.bin.gz", "model.bin.gz"),
    ):
        with archive.open(inside) as source, open(f"{target}/{outside}", "wb") as sink:
            shutil.copyfileobj(source, sink)
EOF
    chmod +x "$dir/katago.AppImage"
    rm -rf "$dir/squashfs-root"
    (cd "$dir" && ./katago.AppImage --appimage-extract >/dev/null)
    rm -f "$dir/katago.AppImage"
fi

mkdir -p "$dir/home" "$dir/pocl-cache"
# The program with its libraries and pocl's cache of compiled kernels (start-up about 3 s
# warm, 14 s cold).
cat > "$dir/katago" <<EOF
#!/bin/sh
export LD_LIBRARY_PATH="$dir/squashfs-root/usr/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export POCL_CACHE_DIR="\${POCL_CACHE_DIR:-$dir/pocl-cache}"
exec "$dir/squashfs-root/usr/bin/katago" "\$@"
EOF
chmod +x "$dir/katago"

# KataGo's tuner file format 13 (cpp/neuralnet/opencltuner.cpp) with the default parameters:
# with it KataGo skips its tuner, which crashes under pocl after many minutes.
cat > "$dir/tuning.txt" <<'EOF'
VERSION=13
#canUseFP16Storage
0
#canUseFP16Compute
0
#canUseFP16TensorCores
0
#canUseFP16TensorCoresFor1x1
0
#shouldUseFP16Storage
0
#shouldUseFP16Compute
0
#shouldUseFP16TensorCores
0
#shouldUseFP16TensorCoresFor1x1
0
#xGemmDirect
WGD=8 MDIMCD=1 NDIMCD=1 MDIMAD=1 NDIMBD=1 KWID=1 VWMD=1 VWND=1 PADA=1 PADB=1
#xGemm
MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0
#xGemm16
MWG=8 NWG=8 KWG=8 MDIMC=1 NDIMC=1 MDIMA=1 NDIMB=1 KWI=1 VWM=1 VWN=1 STRM=0 STRN=0 SA=0 SB=0
#hGemmWmma
MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=2 VWN=2 SA=0 SB=0
#hGemmWmmaNCHW
MWG=16 NWG=16 KWG=16 MWAVE=16 NWAVE=16 MWARP=16 NWARP=16 VWM=1 VWN=2 SB=0 PAD_ELTS_PER_THREAD=1 PAD_ROWS_PER_THREAD=1
#conv3x3
INTILE_XSIZE=4 INTILE_YSIZE=4 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1
#conv5x5
INTILE_XSIZE=6 INTILE_YSIZE=6 OUTTILE_XSIZE=2 OUTTILE_YSIZE=2 transLocalSize0=1 transLocalSize1=1 untransLocalSize0=1 untransLocalSize1=1 untransLocalSize2=1
#gPool
XYSTRIDE=1 CHANNELSTRIDE=1 BATCHSTRIDE=1
#transformer
ATTN_BLOCK_Q=32 ATTN_BLOCK_KV=32 Q_PER_THREAD=1 USE_TILED_ATTN=1
#transformerRMSNorm
WG_C_SIZE=64 WG_XY_SIZE=1 C_PER_THREAD=4
#pointWise
ELTS_PER_THREAD=1 LOCAL_SIZE=32
#addChannelBiasesNCHW
XY_ELTS_PER_THREAD=1 NC_ELTS_PER_THREAD=1
#spatialRMSNorm
TILE_SIZE=32 APPLY_ELTS_PER_THREAD=1
EOF

# The rules of gamerules.go: area counting, positional superko, no suicide, no komi for
# handicap stones (our setups are stones, not handicap). Values are reported from Black's side.
common="logToStderr = false
logAllGTPCommunication = false
logSearchInfo = false
homeDataDir = $dir/home
openclTunerFile = $dir/tuning.txt
openclUseFP16 = false
nnMaxBatchSize = 2
koRule = POSITIONAL
scoringRule = AREA
taxRule = NONE
multiStoneSuicideLegal = false
hasButton = false
whiteHandicapBonus = 0
friendlyPassOk = true
reportAnalysisWinratesAs = BLACK"
printf '%s\n%s\n' "$common" "logDir = $dir/logs
numSearchThreads = 2
ponderingEnabled = false
allowResignation = true
resignThreshold = -0.95
resignConsecTurns = 6
maxVisits = 16
maxTime = 20
lagBuffer = 0.5" > "$dir/gtp.cfg"
printf '%s\n%s\n' "$common" "logDir = $dir/logs
numAnalysisThreads = 2
numSearchThreadsPerAnalysisThread = 1
maxVisits = 1
analysisPVLen = 9
nnCacheSizePowerOfTwo = 18" > "$dir/analysis.cfg"

echo "Checking that KataGo analyses a 9x9 position..."
answer=$(echo '{"id":"check","moves":[["B","E5"]],"rules":"chinese","komi":7,"boardXSize":9,"boardYSize":9,"maxVisits":1}' \
    | timeout 300 "$dir/katago" analysis -config "$dir/analysis.cfg" -model "$dir/model.bin.gz" 2>"$dir/check.log" || true)
case "$answer" in
*'"rootInfo"'*) echo "KataGo is installed in $dir: the server uses it at its next start." ;;
*)
    echo "KataGo did not answer (see $dir/check.log): the server goes on with GNU Go." >&2
    exit 1
    ;;
esac
