#!/usr/bin/env bash
source "$(dirname "$0")/../lib.sh"
stop_service kafka
