<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ssdk::app::PartitionBar</name>
    <message numerus="yes">
        <source>%n partitions: %1</source>
        <translation>
            <numerusform>%n partition: %1</numerusform>
            <numerusform>%n partitions: %1</numerusform>
        </translation>
    </message>
</context>
</TS>
