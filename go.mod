module gradbook

go 1.26.8
