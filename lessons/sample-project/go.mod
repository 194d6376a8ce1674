module example.com/shortly

go 1.22
