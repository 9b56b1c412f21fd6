#!/usr/bin/env bash
# The stand-in's kafka-topics.sh: creation only (Topics.java).
exec java -cp /opt/kafka/kafka.jar:/opt/kafka/topics.jar Topics "$@"
