module vigil/agent

go 1.25

require github.com/BurntSushi/toml v1.5.0
